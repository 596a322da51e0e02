ALTER TABLE "repairs" ADD COLUMN "original_created_at" timestamp with time zone;--> statement-breakpoint
-- Corrections stored before this column: each takes the created_at of the first repair of its chain
-- (docs/API.md#corrections), found by walking `corrects` back from the repairs that correct nothing.
WITH RECURSIVE "chain" ("id", "original_created_at") AS (
  SELECT "id", "created_at" FROM "repairs" WHERE "corrects" IS NULL
  UNION ALL
  SELECT "repairs"."id", "chain"."original_created_at"
  FROM "repairs" JOIN "chain" ON "repairs"."corrects" = "chain"."id"
)
UPDATE "repairs" SET "original_created_at" = "chain"."original_created_at"
FROM "chain"
WHERE "repairs"."id" = "chain"."id" AND "repairs"."corrects" IS NOT NULL;
