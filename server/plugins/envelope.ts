/**
 * Every answer in the one envelope (docs/API.md#the-envelope): thrown ApiErrors, failed validation,
 * malformed JSON, oversized bodies, unknown routes, requests arriving during shutdown, and what Node
 * refuses on the socket itself (oversized headers). Nothing internal ever reaches a client.
 */
import fp from 'fastify-plugin';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { ApiFailure, ErrorCode, ErrorType } from '../../contract';
import { languageOf, messageFor, type Language } from '../i18n/messages';
import { isDatabaseUnavailable } from '../db/unavailable';
import { ApiError } from '../http/errors';
import { RequestValidationError } from '../http/validation';

declare module 'fastify' {
  interface FastifyRequest {
    language: Language;
  }
}

function failure(
  language: Language,
  code: number,
  type: ErrorType,
  reason: ErrorCode,
  fields?: Partial<Record<string, ErrorCode>>,
): ApiFailure {
  const error: ApiFailure['error'] = { type, message: messageFor(reason, language), reason };
  if (fields && Object.keys(fields).length > 0) {
    error.fields = Object.fromEntries(
      Object.entries(fields).map(([field, fieldReason]) => [
        field,
        messageFor(fieldReason ?? 'invalid_request', language),
      ]),
    );
    // The summary names the first field's problem: the PWA shows error.message in a toast.
    const first = Object.values(fields)[0];
    if (first) error.message = messageFor(first, language);
  }
  return { code, status: 'error', error };
}

/**
 * What an unexpected error may say in the log: Drizzle puts the query's parameters (emails,
 * password hashes) into its message, so everything from "params:" on is dropped.
 */
export function loggableError(error: Error): { type: string; message: string; code?: string; stack?: string } {
  const scrub = (text: string | undefined) => text?.replace(/\nparams:[\s\S]*?(?=\n\s+at |$)/, '\nparams: [redacted]');
  const cause = error.cause instanceof Error ? ` (cause: ${error.cause.message})` : '';
  return {
    type: error.name,
    message: (scrub(error.message) ?? '') + cause,
    code: (error as { code?: string }).code,
    stack: scrub(error.stack),
  };
}

/** Maps Fastify's own client errors (body parsing, content type) to our reasons. */
function classifyFastifyError(error: FastifyError): { code: number; type: ErrorType; reason: ErrorCode } | null {
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return { code: 400, type: 'validation', reason: 'malformed_json' };
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return { code: 413, type: 'validation', reason: 'body_too_large' };
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return { code: 415, type: 'validation', reason: 'unsupported_media_type' };
  }
  if (error instanceof SyntaxError) return { code: 400, type: 'validation', reason: 'malformed_json' };
  if (typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500) {
    if (error.statusCode === 429) return { code: 429, type: 'rate_limited', reason: 'rate_limited' };
    return { code: error.statusCode, type: 'validation', reason: 'invalid_request' };
  }
  return null;
}

/** Retry-After on a call the database could not answer: the ready probe's interval, about. */
const DATABASE_AWAY_RETRY_AFTER_S = 5;
const DATABASE_AWAY_LOG_INTERVAL_MS = 10_000;

export const envelopePlugin = fp(
  async (app) => {
    app.decorateRequest('language', 'fr');
    // One warning while the database is away, then one every 10 s, not one error per call.
    let databaseAwayLoggedAt = -Infinity;
    const noteDatabaseAway = (request: FastifyRequest, error: Error) => {
      if (performance.now() - databaseAwayLoggedAt < DATABASE_AWAY_LOG_INTERVAL_MS) return;
      databaseAwayLoggedAt = performance.now();
      request.log.warn({ err: loggableError(error) }, 'database unavailable: answering 503');
    };
    // Fastify's own 503 while closing (return503OnClosing) has its own body: this one is enveloped.
    let closing = false;
    app.addHook('preClose', async () => {
      closing = true;
    });
    app.addHook('onRequest', async (request, reply) => {
      request.language = languageOf(request.headers['accept-language']);
      if (!closing) return;
      // Requests that arrive on a kept-alive connection while the server stops: the client retries
      // elsewhere (another instance, or this one once restarted); this connection is not reused.
      reply.header('connection', 'close');
      return reply.code(503).send(failure(request.language, 503, 'other', 'unavailable'));
    });

    app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
      const language = request.language ?? 'fr';
      if (error instanceof ApiError) {
        if (error.headers) reply.headers(error.headers);
        return reply
          .code(error.statusCode)
          .send(failure(language, error.statusCode, error.type, error.reason, error.fields));
      }
      const validation = error.validation ? (error as unknown as { cause?: unknown }).cause : undefined;
      const validationError =
        error instanceof RequestValidationError
          ? error
          : validation instanceof RequestValidationError
            ? validation
            : null;
      if (validationError || error.validation) {
        const fields = validationError?.fields ?? {};
        // The first field's own code is the reason, so a client can act on it without reading fields.
        const reason = Object.values(fields)[0] ?? 'invalid_request';
        return reply.code(400).send(failure(language, 400, 'validation', reason, fields));
      }
      const known = classifyFastifyError(error);
      if (known) return reply.code(known.code).send(failure(language, known.code, known.type, known.reason));
      if (isDatabaseUnavailable(error)) {
        noteDatabaseAway(request, error);
        reply.header('retry-after', String(DATABASE_AWAY_RETRY_AFTER_S));
        return reply.code(503).send(failure(language, 503, 'other', 'unavailable'));
      }
      request.log.error({ err: loggableError(error) }, 'unhandled error');
      return reply.code(500).send(failure(language, 500, 'other', 'internal'));
    });
  },
  { name: 'envelope' },
);

/** The 404 answer for API paths; client routes fall back to the PWA instead. */
export function sendNotFound(request: FastifyRequest, reply: FastifyReply) {
  return reply.code(404).send(failure(request.language ?? 'fr', 404, 'not_found', 'not_found'));
}

/**
 * Errors Fastify raises before a request reaches routing and hooks (a malformed percent-encoding,
 * a path parameter over maxParamLength): passed as the `frameworkErrors` option so they get the
 * envelope too instead of Fastify's own JSON.
 */
export function sendFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const code = error.statusCode === 414 ? 414 : 400;
  const language = languageOf(request.headers['accept-language']);
  return reply.code(code).send(failure(language, code, 'validation', 'invalid_request'));
}

/** What Node's parser refused on a connection, as our reason. */
function classifyClientError(error: NodeJS.ErrnoException): { code: number; type: ErrorType; reason: ErrorCode } {
  if (error.code === 'HPE_HEADER_OVERFLOW') return { code: 431, type: 'validation', reason: 'headers_too_large' };
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') return { code: 408, type: 'other', reason: 'request_timeout' };
  return { code: 400, type: 'validation', reason: 'invalid_request' };
}

/**
 * Node's errors on a connection before any request exists (headers over its 16 KB limit, bytes
 * that are not HTTP, a request too slow to arrive), passed as the `clientErrorHandler` option:
 * answered in the envelope, written straight to the socket, which is then closed. Nothing was
 * parsed, so not even Accept-Language: the words are French, the portal's default.
 */
export function sendClientError(error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const { code, type, reason } = classifyClientError(error);
  const body = JSON.stringify(failure('fr', code, type, reason));
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${code} ${STATUS_CODES[code]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}
