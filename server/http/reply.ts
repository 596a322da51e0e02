import type { FastifyReply } from 'fastify';
import type { ApiSuccess } from '../../contract';

/** The success envelope; the HTTP status always equals `code`. */
export function success<T>(reply: FastifyReply, data: T, code = 200): ApiSuccess<T> {
  reply.code(code);
  return { code, status: 'success', data };
}
