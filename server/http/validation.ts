/**
 * Route schemas are the contract's zod-mini schemas. This compiler validates with them and this
 * type provider gives handlers the parsed types, so a route cannot drift from the contract.
 */
import type { FastifySchemaCompiler, FastifyTypeProvider } from 'fastify';
import type * as z from 'zod/mini';
import { firstIssuePerField, type ErrorCode } from '../../contract';

export interface ZodMiniTypeProvider extends FastifyTypeProvider {
  validator: this['schema'] extends z.ZodMiniType ? z.output<this['schema']> : unknown;
  serializer: this['schema'] extends z.ZodMiniType ? z.input<this['schema']> : unknown;
}

/** Thrown by the compiler; carries the first problem of each field as an ErrorCode. */
export class RequestValidationError extends Error {
  constructor(readonly fields: Partial<Record<string, ErrorCode>>) {
    super('validation failed');
    this.name = 'RequestValidationError';
  }
}

export const zodValidatorCompiler: FastifySchemaCompiler<z.ZodMiniType> = ({ schema }) => {
  return (data: unknown) => {
    const result = schema.safeParse(data);
    if (result.success) return { value: result.data };
    return { error: new RequestValidationError(firstIssuePerField(result.error.issues)) };
  };
};
