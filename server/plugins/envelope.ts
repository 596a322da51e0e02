/**
 * Every answer in the one envelope (docs/API.md#the-envelope): thrown ApiErrors, failed validation,
 * malformed JSON, oversized bodies, unknown routes. Nothing internal ever reaches a client.
 */
import fp from 'fastify-plugin';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { ApiFailure, ErrorCode, ErrorType } from '../../contract';
import { languageOf, messageFor, type Language } from '../i18n/messages';
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

export const envelopePlugin = fp(
  async (app) => {
    app.decorateRequest('language', 'fr');
    app.addHook('onRequest', async (request) => {
      request.language = languageOf(request.headers['accept-language']);
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
