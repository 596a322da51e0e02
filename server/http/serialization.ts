/**
 * Response schemas are zod-mini schemas too (as request schemas are: ./validation.ts). This compiler
 * writes an answer only once it matches its route's schema for that status, keeping only the fields
 * the schema names: a route cannot answer what its schema does not declare. A mismatch is a bug in
 * the route and reaches the error handler, which answers 500 `internal` and logs it.
 */
import type { FastifySerializerCompiler } from 'fastify';
import type * as z from 'zod/mini';

export class ResponseSchemaError extends Error {
  constructor(method: string, url: string, status: string | undefined, issues: string) {
    super(`${method} ${url} answered ${status ?? '?'} with a body its response schema refuses: ${issues}`);
    this.name = 'ResponseSchemaError';
  }
}

export const zodSerializerCompiler: FastifySerializerCompiler<z.ZodMiniType> = ({
  schema,
  method,
  url,
  httpStatus,
}) => {
  // Whatever the route sent: the schema decides whether it may go out.
  return (data: unknown) => {
    const result = schema.safeParse(data);
    if (!result.success) {
      const issues = result.error.issues.map((issue) => `${issue.path.join('.') || '(body)'}: ${issue.message}`);
      throw new ResponseSchemaError(method, url, httpStatus, issues.join('; '));
    }
    return JSON.stringify(result.data);
  };
};
