import { type ArgumentsHost, Catch, type ExceptionFilter } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { ServerResponse } from 'node:http';
import { PROBLEM_CONTENT_TYPE, type Problem } from './problem';
import { noStore } from './no-store';

/** Seconds a client should wait before retrying a 503. */
export const RETRY_AFTER_SECONDS = 5;

export const UNAVAILABLE_DETAIL = 'Service temporarily unavailable, please try again shortly';

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
