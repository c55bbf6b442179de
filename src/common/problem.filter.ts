import { type ArgumentsHost, Catch, type ExceptionFilter, HttpException } from '@nestjs/common';
import type { Request, Response } from 'express';
import { STATUS_CODES, type ServerResponse } from 'node:http';
import { isDatabaseUnavailable } from '../database/errors';
import {
  BusyError,
  DomainError,
  type ErrorKey,
  RateLimitedError,
  ValidationFailedError,
} from './errors';
import { statusErrorKey } from '../shared/error-keys';
import { PROBLEM_CONTENT_TYPE, problem, type Problem } from './problem';
import { noStore } from './no-store';

/**
 * What a thrown value means for the answer and the logs:
 * `expected` (a 4xx the caller caused: no log), `unavailable` (a dependency is down or silent: 503
 * with Retry-After, logged once per interval), `unexpected` (a bug: 500, logged and reported).
 */
export type FailureKind = 'expected' | 'unavailable' | 'unexpected';

/** Seconds a client should wait before retrying a 503. */
export const RETRY_AFTER_SECONDS = 5;

export const UNAVAILABLE_DETAIL = 'Service temporarily unavailable, please try again shortly';

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
    }
    return {
      body: problem(status, STATUS_CODES[status] ?? 'Error', detail, instance, { errorKey }),
      kind: status >= 500 ? 'unexpected' : 'expected',
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

/** Writes a problem answer on any Node response (Express's or the follow fast path's). */
export function sendProblem(res: ServerResponse, body: Problem): void {
  if (res.headersSent) return;
  const json = JSON.stringify(body);
  res.statusCode = body.status;
  res.setHeader('Content-Type', `${PROBLEM_CONTENT_TYPE}; charset=utf-8`);
  noStore(res);
  if (body.status === 503) res.setHeader('Retry-After', String(RETRY_AFTER_SECONDS));
  if (body.retryAfter !== undefined) res.setHeader('Retry-After', String(body.retryAfter));
  res.setHeader('Content-Length', Buffer.byteLength(json));
  res.end(json);
}

/** What the failure handling needs to know about a request. */
export interface FailedRequest {
  method: string;
  path: string;
  requestId?: string;
  route?: string;
}

/** Maps, logs and reports a failed request; implemented by FailureReporter. */
export interface FailureHandler {
  request(err: unknown, req: FailedRequest): Problem;
}

export function failedRequest(req: Request): FailedRequest {
  const route = req.route as { path?: unknown } | undefined;
  return {
    method: req.method,
    path: req.path,
    requestId: (req as Request & { id?: string }).id,
    route: route && typeof route.path === 'string' ? `${req.baseUrl}${route.path}` : undefined,
  };
}

/** The one exception filter: every error a handler throws becomes problem+json. */
@Catch()
export class ProblemFilter implements ExceptionFilter {
  constructor(private readonly failures: FailureHandler) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const ctx = host.switchToHttp();
    const req = ctx.getRequest<Request>();
    const res = ctx.getResponse<Response>();
    sendProblem(res, this.failures.request(exception, failedRequest(req)));
  }
}
