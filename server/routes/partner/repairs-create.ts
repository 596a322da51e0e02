import type { FastifyPluginAsync, FastifyRequest, RawServerDefault } from 'fastify';
import {
  IDEMPOTENCY_KEY_PATTERN,
  repairEntry,
  repairHeaders,
  responseSchemas,
  type RepairRecord,
} from '../../../contract/server';
import { badRequest, conflict, notFound, unauthorized } from '../../http/errors';
import { success } from '../../http/reply';
import type { ZodMiniTypeProvider } from '../../http/validation';
import { createRepair, findByIdempotencyKey, recordedAtInRange, type StoredRepair } from '../../services/repairs';
import { requestHash } from '../../services/request-hash';

/** A plugin whose routes get their request types from the contract's zod-mini schemas. */
type ZodRoutes = FastifyPluginAsync<Record<never, never>, RawServerDefault, ZodMiniTypeProvider>;

function idempotencyKeyOf(request: FastifyRequest): string {
  const header = request.headers['idempotency-key'];
  if (typeof header !== 'string' || !IDEMPOTENCY_KEY_PATTERN.test(header)) {
    throw badRequest('idempotency_key_invalid');
  }
  return header.toLowerCase();
}

/** A replay of the stored request answers with the stored repair; anything else under its key is refused. */
function replay(stored: StoredRepair, hash: string): RepairRecord {
  if (stored.requestHash !== hash) throw conflict('idempotency_conflict', 422);
  return stored.repair;
}

/**
 * POST /repairs: records a repair once per (partner, Idempotency-Key). The first request stores it
 * (201); a repeat with the same body gets the stored repair (200), even after the recorded_at window
 * has passed; the same key with another body gets 422. With `corrects` and `correction_reason` it
 * corrects one of the partner's own repairs, keeping its recorded_at (and its vehicle, unless the reason
 * is wrong_vehicle), within 7 days of the first repair of the chain (docs/API.md#corrections). The vehicle's
 * readings are judged again as it is stored (docs/PRODUCT.md#odometer-plausibility).
 */
export const repairsCreateRoute: ZodRoutes = async (app) => {
  app.post(
    '/repairs',
    {
      schema: { body: repairEntry, headers: repairHeaders, response: responseSchemas('POST partner /repairs') },
      // The key is checked before the body (and the headers' schema), so a client that never sends one
      // learns that first, with its own reason.
      preValidation: async (request) => {
        idempotencyKeyOf(request);
      },
    },
    async (request, reply) => {
      if (!request.partner) throw unauthorized();
      const partnerId = request.partner.userId;
      const idempotencyKey = idempotencyKeyOf(request);
      const body = request.body;
      const hash = requestHash(body);

      const existing = await findByIdempotencyKey(app.db, partnerId, idempotencyKey);
      if (existing) return success(reply, replay(existing, hash), 200);

      const recordedAt = new Date(body.recorded_at);
      if (Number.isNaN(recordedAt.getTime())) {
        throw badRequest('recorded_at_invalid', { recorded_at: 'recorded_at_invalid' });
      }
      const now = app.clock();
      // A correction keeps the moment of the reading it corrects, already accepted when that one was
      // stored: it is compared with it instead (docs/API.md#corrections), even past the maximum age.
      if (!body.corrects && !recordedAtInRange(recordedAt, now)) {
        throw badRequest('recorded_at_out_of_range', { recorded_at: 'recorded_at_out_of_range' });
      }

      const outcome = await createRepair(app.db, {
        partnerId,
        idempotencyKey,
        requestHash: hash,
        kodeId: body.kode_id.toUpperCase(),
        repairTypeId: body.repair_type_id,
        odometer: body.odometer,
        note: body.note.trim(),
        recordedAt,
        createdAt: now,
        ...(body.corrects && body.correction_reason
          ? { correction: { corrects: body.corrects.toLowerCase(), reason: body.correction_reason } }
          : {}),
      });
      switch (outcome.kind) {
        case 'created':
          return success(reply, outcome.repair, 201);
        case 'exists':
          return success(reply, replay(outcome.stored, hash), 200);
        case 'vehicle_not_found':
          throw notFound('vehicle_not_found');
        case 'repair_type_not_found':
          throw badRequest('repair_type_not_found', { repair_type_id: 'repair_type_not_found' });
        case 'repair_not_found':
          throw notFound('repair_not_found');
        case 'already_corrected':
          throw conflict('already_corrected');
        case 'correction_window_closed':
          throw conflict('correction_window_closed', 422);
        case 'correction_vehicle_changed':
          throw badRequest('correction_vehicle_changed', { kode_id: 'correction_vehicle_changed' });
        case 'correction_recorded_at_changed':
          throw badRequest('correction_recorded_at_changed', { recorded_at: 'correction_recorded_at_changed' });
        default: {
          const unexpected: never = outcome;
          throw new Error(`unexpected outcome ${JSON.stringify(unexpected)}`);
        }
      }
    },
  );
};
