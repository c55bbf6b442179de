import { DomainError } from '../common/errors';
import { UNAVAILABLE_DETAIL } from '../common/problem.filter';

/**
 * Redis is needed for this call (a session that lives there) and is not connected, or a command
 * failed on the connection: 503 with Retry-After, counted by the Redis outage log (never a 500,
 * never a wait for the reconnect).
 */
export class RedisUnavailableError extends DomainError {
  readonly status = 503;
  readonly title = 'Service Unavailable';
  /** A short name of the cause for logs (never a message: it may name hosts). */
  readonly code: string;

  constructor(override readonly cause?: unknown) {
    super(UNAVAILABLE_DETAIL, 'service_unavailable');
    const c = cause as { code?: unknown; name?: unknown } | undefined;
    this.code =
      typeof c?.code === 'string' ? c.code : typeof c?.name === 'string' ? c.name : 'NOT_CONNECTED';
  }
}
