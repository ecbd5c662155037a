import type { z } from 'zod';
import { BadRequestError } from './errors.ts';

/** Parses a request body with a contract schema; a bad body is a 400 whose `error` lists every problem. */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  const result = schema.safeParse(body ?? {});
  if (result.success) return result.data;
  const messages = [...new Set(result.error.issues.map((i) => i.message))];
  throw new BadRequestError(messages.join(' '), 'VALIDATION_FAILED');
}
