import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ApiSuccess } from '../../contract';

/** The success envelope; the HTTP status always equals `code`. */
export function success<T>(reply: FastifyReply, data: T, code = 200): ApiSuccess<T> {
  reply.code(code);
  return { code, status: 'success', data };
}

/**
 * onSend hook for the routes whose answers carry tokens or partner data (sign-in, sessions, the
 * partner's records): no browser or proxy cache may keep them, errors included.
 */
export async function noStore(_request: FastifyRequest, reply: FastifyReply): Promise<void> {
  reply.header('cache-control', 'no-store');
}

/** Adds a request header to Vary, keeping those already named (CORS names Origin when it is open). */
export function varyOn(reply: FastifyReply, header: string): FastifyReply {
  const named = reply.getHeader('vary');
  const list = (Array.isArray(named) ? named.join(',') : String(named ?? ''))
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  if (!list.some((name) => name.toLowerCase() === header.toLowerCase())) list.push(header);
  return reply.header('vary', list.join(', '));
}
