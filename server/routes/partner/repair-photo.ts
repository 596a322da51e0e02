/**
 * A repair's odometer photo (docs/API.md#photos): PUT joins it once, GET serves it to the partner who
 * recorded the repair. The picture's bytes travel as they are (image/webp or image/jpeg), not in JSON.
 */
import { Readable } from 'node:stream';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest, RawServerDefault } from 'fastify';
import { PHOTO_MAX_BYTES, PHOTO_TYPES, repairParams, responseSchemas, type PhotoType } from '../../../contract/server';
import { ifNoneMatchNames } from '../../http/conditional';
import { conflict, notFound, unauthorized, unsupportedMediaType } from '../../http/errors';
import { success, varyOn } from '../../http/reply';
import type { ZodMiniTypeProvider } from '../../http/validation';
import { findPhoto, partnerOwnsRepair, readPhotoPieces, storePhoto } from '../../services/photos';

/** A plugin whose routes get their request types from the contract's zod-mini schemas. */
type ZodRoutes = FastifyPluginAsync<Record<never, never>, RawServerDefault, ZodMiniTypeProvider>;

/** How long a tablet may keep a photo without asking again: it never changes once joined. */
const PHOTO_MAX_AGE_S = 30 * 24 * 60 * 60;

function declaredPhotoType(request: FastifyRequest): PhotoType | null {
  const type = (request.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  return (PHOTO_TYPES as readonly string[]).includes(type ?? '') ? (type as PhotoType) : null;
}

/** PUT /repairs/:id/photo: 201 joined, 200 the same bytes again, 409 another photo, 415 not a photo of ours. */
export const repairPhotoUploadRoute: ZodRoutes = async (app) => {
  // Only here: every other route of the API still refuses a picture's media type with 415.
  app.addContentTypeParser(
    [...PHOTO_TYPES],
    { parseAs: 'buffer', bodyLimit: PHOTO_MAX_BYTES },
    (_request, body, done) => done(null, body),
  );
  app.put(
    '/repairs/:id/photo',
    {
      bodyLimit: PHOTO_MAX_BYTES,
      schema: { params: repairParams, response: responseSchemas('PUT partner /repairs/{id}/photo') },
      // Before a byte of the body is read: a repair that is not the caller's costs no memory, nor does
      // an upload that has to wait its turn (docs/API.md#photo-traffic). An id that is not one is left
      // to the params' validation (400), after the body.
      preParsing: async (request: FastifyRequest, reply: FastifyReply) => {
        const params = repairParams.safeParse(request.params);
        if (!request.partner || !params.success) return;
        if (!(await partnerOwnsRepair(app.db, request.partner.userId, params.data.id))) {
          throw notFound('repair_not_found');
        }
        await app.photoTraffic.enter('writes', request.partner.userId, reply);
      },
    },
    async (request, reply) => {
      if (!request.partner) throw unauthorized();
      const declared = declaredPhotoType(request);
      if (!declared || !Buffer.isBuffer(request.body)) throw unsupportedMediaType();
      const outcome = await storePhoto(app.database, request.partner.userId, request.params.id, request.body, declared);
      switch (outcome.kind) {
        case 'stored':
          return success(reply, outcome.photo, 201);
        case 'same':
          return success(reply, outcome.photo, 200);
        case 'not_found':
          throw notFound('repair_not_found');
        case 'conflict':
          throw conflict('photo_exists');
        case 'invalid':
          throw unsupportedMediaType('photo_invalid');
      }
    },
  );
};

/** A photo is kept privately by the tablet for a month: it never changes once joined. */
function withPhotoHeaders(reply: FastifyReply, etag: string): FastifyReply {
  return varyOn(reply, 'Authorization').headers({
    'cache-control': `private, max-age=${PHOTO_MAX_AGE_S}, immutable`,
    etag,
    'x-content-type-options': 'nosniff',
  });
}

/**
 * GET /repairs/:id/photo: the bytes, to the partner who recorded the repair. Without credentials, as for
 * another partner's repair, there is no such photo (404): nothing says a repair has one. An expired
 * token is a 401 as on every partner call, so the tablet refreshes its session and asks again.
 */
export const repairPhotoRoute: ZodRoutes = async (app) => {
  app.get(
    '/repairs/:id/photo',
    { schema: { params: repairParams, response: responseSchemas('GET partner /repairs/{id}/photo') } },
    async (request, reply) => {
      if (request.headers.authorization === undefined) throw notFound('not_found');
      // In its turn before any database call (docs/API.md#photo-traffic): a flood beyond the
      // partner's share is turned away for the cost of reading a token, and never queues for the
      // database connections every other call needs. The turn is the token's partner's; the session
      // behind it is checked next, in the turn.
      await app.photoTraffic.enter('reads', await app.claimedPartnerId(request), reply);
      await app.authenticate(request);
      if (!request.partner) throw unauthorized();
      const photo = await findPhoto(app.db, request.partner.userId, request.params.id);
      if (!photo) throw notFound('not_found');
      const etag = `"${photo.sha256}"`;
      // A tablet that has the photo is answered from its hash alone: its bytes are not read.
      if (ifNoneMatchNames(request.headers['if-none-match'], etag)) {
        return withPhotoHeaders(reply.code(304), etag).send();
      }
      // Streamed a piece at a time: neither the event loop nor the memory is held for a whole photo.
      const pieces = await readPhotoPieces(app.database.bulk, request.params.id, photo.byteSize);
      if (!pieces) throw notFound('not_found');
      return withPhotoHeaders(reply, etag)
        .type(photo.type)
        .header('content-length', photo.byteSize)
        .send(Readable.from(pieces, { objectMode: false }));
    },
  );
};
