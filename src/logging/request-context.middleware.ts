import type { NextFunction, Request, Response } from 'express';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { MetricsService } from '../metrics/metrics.service';
import { type LogService, requestContext } from './log.service';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The route template of a handled request (e.g. `/api/code/:code`), or `unmatched`. */
export function routeOf(req: Request): string {
  const route = req.route as { path?: unknown } | undefined;
  return route && typeof route.path === 'string' ? `${req.baseUrl}${route.path}` : 'unmatched';
}

/** A request's id: the caller's X-Request-Id when it is a sane one, else a new one. */
export function requestIdOf(req: IncomingMessage): string {
  const incoming = req.headers['x-request-id'];
  return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
}

/**
 * When the answer is finished: one metrics observation and, only at debug level, one access log
 * line (path only: query strings may carry passwords). `route` is read then (Express sets it on
 * the way).
 */
export function observeRequest(
  log: LogService,
  metrics: MetricsService,
  request: { method: string; path: string; id: string; start: bigint; route: () => string },
  res: ServerResponse,
): void {
  res.on('finish', () => {
    const seconds = Number(process.hrtime.bigint() - request.start) / 1e9;
    const route = request.route();
    metrics.recordHttp(request.method, route, res.statusCode, seconds);
    if (log.isEnabled('debug', 'http')) {
      log.write('debug', 'http', `${request.method} ${request.path} ${res.statusCode}`, {
        requestId: request.id,
        route,
        status: res.statusCode,
        durationMs: Math.round(seconds * 1e6) / 1e3,
      });
    }
  });
}

/**
 * First middleware of every request: a request id (X-Request-Id, kept when the caller sends a
 * sane one, else generated) in the response header and in the async context of the request's
 * log lines; on finish one metrics observation and, only at debug level, one access log line
 * (path only: query strings may carry passwords). No I/O on the request path.
 */
export function requestContextMiddleware(log: LogService, metrics: MetricsService) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const start = process.hrtime.bigint();
    const id = requestIdOf(req);
    (req as Request & { id?: string }).id = id;
    res.setHeader('X-Request-Id', id);
    observeRequest(
      log,
      metrics,
      {
        method: req.method,
        get path() {
          return req.path;
        },
        id,
        start,
        route: () => routeOf(req),
      },
      res,
    );
    requestContext.run({ requestId: id }, next);
  };
}
