import { HttpError } from '../errors.ts';

/** Uploads answer this when Redis (queue and tracking) does not answer: quickly, and nothing is kept. */
export class QueueUnavailableError extends HttpError {
  constructor() {
    super(
      503,
      'QUEUE_UNAVAILABLE',
      'Uploads are paused because the processing queue is not reachable. Please try again in a moment.',
    );
  }
}
