-- A photo is a JPEG or WebP: already compressed, so PostgreSQL's own compression only costs time on
-- every write. Stored out of line uncompressed, a piece of it (services/photos/store.ts reads a photo
-- piece by piece) is read without reading the rest.
ALTER TABLE "repair_photos" ALTER COLUMN "bytes" SET STORAGE EXTERNAL;
