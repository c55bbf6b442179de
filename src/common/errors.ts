import type { ErrorKey, FieldErrorPath, SpecificErrorKey } from '../shared/error-keys';

export type { ErrorKey, SpecificErrorKey } from '../shared/error-keys';

/**
 * Small domain errors thrown by services. One filter (ProblemFilter) maps them to
 * application/problem+json; services never throw HTTP exceptions themselves. Every error is thrown
 * with its own `errorKey` (src/shared/error-keys.ts), one that says more than its status.
 */
export abstract class DomainError extends Error {
  abstract readonly status: number;
  abstract readonly title: string;
  /** The ids the refusal concerns (a bulk edit's), answered as the problem's `ids` member. */
  ids?: readonly string[];
  constructor(
    detail: string,
    readonly errorKey: SpecificErrorKey,
  ) {
    super(detail);
    this.name = new.target.name;
  }
}

/** The base of the errors of one HTTP status: its status and title, nothing else. */
function statusError(status: number, title: string) {
  abstract class StatusError extends DomainError {
    readonly status = status;
    readonly title = title;
  }
  return StatusError;
}

export class BadRequestError extends statusError(400, 'Bad Request') {}

export class UnauthorizedError extends statusError(401, 'Unauthorized') {
  constructor(detail = 'Authentication required') {
    super(detail, 'unauthorized');
  }
}

export class ForbiddenError extends statusError(403, 'Forbidden') {}

export class NotFoundError extends statusError(404, 'Not Found') {}

export class ConflictError extends statusError(409, 'Conflict') {}

export class TooManyRequestsError extends statusError(429, 'Too Many Requests') {}

/** A rate limit was reached (CONTRACT "Limits"): 429 with Retry-After; nothing was written. */
export class RateLimitedError extends TooManyRequestsError {
  constructor(readonly retryAfterSeconds: number) {
    super('Too many requests', 'rate_limited');
  }
}

/**
 * The server's own capacity for some work is used up (e.g. the QR renderer's queue is full, or a
 * render took too long): 503 with Retry-After. Not an outage of a dependency, so not logged as one.
 */
export class BusyError extends statusError(503, 'Service Unavailable') {
  constructor(
    detail: string,
    errorKey: SpecificErrorKey,
    readonly retryAfterSeconds: number,
  ) {
    super(detail, errorKey);
  }
}

/** `err` naming the ids it concerns (the problem's `ids` member; see DomainError.ids). */
export function naming<E extends DomainError>(err: E, ids: readonly string[]): E {
  err.ids = [...ids];
  return err;
}

/** The 404 every "unknown, expired or exhausted short" answers with (the web client maps its detail). */
export function shortNotFound(): NotFoundError {
  return new NotFoundError('Entity URLShort not exists', 'entity_not_exists');
}

/**
 * Validation failure with one message per field; `fieldErrorKeys` may give a field's message a
 * stable key (an import reports it per skipped row), `fieldErrorPaths` where inside the field it is.
 */
export class ValidationFailedError extends BadRequestError {
  constructor(
    readonly fieldErrors: Record<string, string>,
    readonly fieldErrorKeys: Record<string, ErrorKey> = {},
    readonly fieldErrorPaths: Record<string, FieldErrorPath> = {},
  ) {
    super('Validation failed', 'validation_failed');
  }
}
