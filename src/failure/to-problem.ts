import { HttpException } from '@nestjs/common';
import { STATUS_CODES } from 'node:http';
import {
  BusyError,
  DomainError,
  type ErrorKey,
  RateLimitedError,
  ValidationFailedError,
} from '../common/errors';
import { problem, type Problem } from '../common/problem';
import { UNAVAILABLE_DETAIL } from '../common/problem.filter';
import { isDatabaseUnavailable } from '../database/errors';
import { statusErrorKey } from '../shared/error-keys';

/**
 * What a thrown value means for the answer and the logs:
 * `expected` (a 4xx the caller caused: no log), `unavailable` (a dependency is down or silent: 503
 * with Retry-After, logged once per interval), `unexpected` (a bug: 500, logged and reported).
 */
export type FailureKind = 'expected' | 'unavailable' | 'unexpected';

/** The router's sentence for a path parameter that is no valid percent-encoding. */
const DECODE_FAILED = /^Failed to decode param /;

/** Turns any thrown value into an application/problem+json answer. */
export function toProblem(err: unknown, instance: string): { body: Problem; kind: FailureKind } {
  if (err instanceof ValidationFailedError) {
    return {
      body: problem(400, err.title, err.message, instance, {
        errorKey: err.errorKey,
        fieldErrors: err.fieldErrors,
        fieldErrorKeys: err.fieldErrorKeys,
        fieldErrorPaths: err.fieldErrorPaths,
      }),
      kind: 'expected',
    };
  }
  if (err instanceof DomainError) {
    return {
      body: problem(err.status, err.title, err.message, instance, {
        errorKey: err.errorKey,
        retryAfter:
          err instanceof RateLimitedError || err instanceof BusyError
            ? err.retryAfterSeconds
            : undefined,
        ids: err.ids,
      }),
      // A busy server answers 503 but no dependency is down: nothing for the outage logs.
      kind: err.status === 503 && !(err instanceof BusyError) ? 'unavailable' : 'expected',
    };
  }
  if (isDatabaseUnavailable(err)) {
    return {
      body: problem(503, 'Service Unavailable', UNAVAILABLE_DETAIL, instance, {
        errorKey: 'service_unavailable',
      }),
      kind: 'unavailable',
    };
  }
  if (err instanceof HttpException) {
    const status = err.getStatus();
    const res = err.getResponse();
    let detail = typeof res === 'string' ? res : err.message;
    if (typeof res === 'object' && res && 'message' in res) {
      const m = (res as { message: unknown }).message;
      detail = Array.isArray(m) ? m.join(', ') : String(m);
    }
    let errorKey = statusErrorKey(status);
    if (status === 404 && /^Cannot (GET|POST|PUT|DELETE|PATCH|HEAD|OPTIONS) /.test(detail)) {
      detail = 'No route matches this request';
      errorKey = 'route_unknown';
    } else if (status === 400 && DECODE_FAILED.test(detail)) {
      errorKey = 'path_invalid';
    }
    return {
      body: problem(status, STATUS_CODES[status] ?? 'Error', detail, instance, { errorKey }),
      kind: status >= 500 ? 'unexpected' : 'expected',
    };
  }
  // The router's refusal of a path parameter that is no valid percent-encoding (a URIError).
  if (err instanceof URIError && DECODE_FAILED.test(err.message)) {
    return {
      body: problem(400, 'Bad Request', err.message, instance, { errorKey: 'path_invalid' }),
      kind: 'expected',
    };
  }
  // Errors raised by body parsing (http-errors): safe to expose when `expose` is set.
  const e = err as { status?: unknown; statusCode?: unknown; expose?: unknown; type?: unknown };
  const status = Number(e?.status ?? e?.statusCode);
  if (e && e.expose === true && status >= 400 && status < 500) {
    const [detail, errorKey]: [string, ErrorKey] =
      e.type === 'entity.too.large'
        ? ['Request body is too large', 'body_too_large']
        : e.type === 'entity.parse.failed'
          ? ['Request body is not valid JSON', 'json_invalid']
          : status === 415
            ? ['Unsupported content type', 'content_type_unsupported']
            : [STATUS_CODES[status] ?? 'Bad Request', 'body_unreadable'];
    return {
      body: problem(status, STATUS_CODES[status] ?? 'Error', detail, instance, { errorKey }),
      kind: 'expected',
    };
  }
  return {
    body: problem(500, 'Internal Server Error', 'An unexpected error occurred', instance, {
      errorKey: 'internal_error',
    }),
    kind: 'unexpected',
  };
}
