import type { z } from 'zod';
import { BadRequestError } from './errors.ts';

/** Parses a request body with a contract schema; a bad body is a 400 whose `error` lists every problem. */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  const result = schema.safeParse(body ?? {});
  if (result.success) return result.data;
  const messages = [...new Set(result.error.issues.map((i) => i.message))];
  throw new BadRequestError(messages.join(' '), 'VALIDATION_FAILED');
}

/**
 * A query-string parameter given once as text (`?name=value`), or undefined when it is missing
 * or given otherwise (repeated, or as an object).
 *
 * @param query - the request's parsed query (`req.query`)
 * @param name - the parameter's name
 */
export function queryText(query: Record<string, unknown>, name: string): string | undefined {
  const value = query[name];
  return typeof value === 'string' ? value : undefined;
}
