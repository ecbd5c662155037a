/**
 * Structured logs (issue 36; docs/operations.md, "Logs"): pino, one JSON object a line on standard
 * error, at LOG_LEVEL. Requests carry their request id into every line they log and into the
 * ingest jobs they queue. Node-only: the web app never imports it.
 */
import { pino, type Logger } from 'pino';

export type { Logger } from 'pino';

/** Levels LOG_LEVEL may name, least verbose last. */
export const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/**
 * A logger writing JSON lines to standard error, each with `role` (`api`, `worker`, `sift` for the
 * all-in-one process). Errors given as `err` come with their message, type and stack.
 */
export function createLogger(role: string, level: LogLevel = 'info'): Logger {
  return pino({ level, base: { role }, timestamp: pino.stdTimeFunctions.isoTime }, pino.destination(2));
}

/**
 * The `(message, detail)` function much of Sift logs failures through, writing to `logger` at
 * `error`: an Error as `err` (message and stack), anything else as `detail`.
 */
export function logFunction(logger: Logger): (message: string, detail?: unknown) => void {
  return (message, detail) => {
    if (detail instanceof Error) logger.error({ err: detail }, message);
    else if (detail === undefined || detail === '') logger.error(message);
    else logger.error({ detail }, message);
  };
}
