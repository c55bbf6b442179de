import { ConsoleLogger, type INestApplication, Logger, type LoggerService } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { NextFunction, Request, Response } from 'express';
import { AuthPipeline } from './account/auth-pipeline';
import type { AppConfig } from './config/config';
import { failedRequest, ProblemFilter, sendProblem } from './common/problem.filter';
import { FailureReporter } from './failure/failure-reporter';
import { problem } from './common/problem';
import { compileTrust } from './common/client-address';
import { NUL_MESSAGE } from './common/db-limits';
import { BODY_READ, type BodyReadRequest, jsonBodyReader } from './common/json-body';
import { API_HEADERS } from './common/security-headers';
import { createValidationPipe } from './common/validation';
import { BodyNullCheck } from './openapi/body-nulls';
import { setupSwagger } from './openapi/document';
import { LogService } from './logging/log.service';
import { requestContextMiddleware } from './logging/request-context.middleware';
import { MetricsService } from './metrics/metrics.service';
import { scrapeTokenMiddleware } from './metrics/scrape-token.middleware';

export const JSON_BODY_LIMIT = '16kb';
/** Routes that take larger bodies, with their limit (an import of up to 5,000 rows, 500 ids). */
const LARGE_BODY_ROUTES: Record<string, string> = {
  '/api/code/import': '2mb',
  '/api/code/bulk': '64kb',
  // A link page: up to 100 links with labels of 120 characters (PATCH /api/pages/{id} alike).
  '/api/pages': '64kb',
};
const PAGE_ROUTE = /^\/api\/pages\/[^/]+\/?$/;

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

function hasBody(req: Request): boolean {
  return (
    req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0
  );
}

/** Everything the running app and the e2e tests share: parsers, errors, headers, docs. */
export function configureApp(app: INestApplication, config: AppConfig): void {
  const ex = app as NestExpressApplication;
  ex.disable('x-powered-by');
  const trust = compileTrust(config.trustProxy);
  ex.set('trust proxy', trust);
  ex.set('query parser', 'simple');

  // Structured logging with request ids, and per-route metrics (first, so every answer has an id).
  const log = app.get(LogService);
  // A logger instance given to the factory (tests capture lines that way) keeps receiving them.
  const given = (Logger as unknown as { staticInstanceRef?: unknown }).staticInstanceRef;
  if (
    given &&
    typeof given === 'object' &&
    !(given instanceof ConsoleLogger) &&
    !(given instanceof LogService)
  ) {
    log.tee(given as LoggerService);
  }
  app.useLogger(log);
  const metrics = app.get(MetricsService);
  ex.use(requestContextMiddleware(log, metrics));
  // Prometheus scrapes with METRICS_TOKEN (before the API-key check, which would refuse that token).
  ex.use(scrapeTokenMiddleware(metrics, config.metricsToken));

  ex.use((_req: Request, res: Response, next: NextFunction) => {
    for (const [name, value] of API_HEADERS) res.setHeader(name, value);
    next();
  });

  // U+0000 is never data (PostgreSQL cannot store it): a %00 in the path or query is refused
  // before anything decodes it (follows never get here: an unknown code, see ShortRepository).
  ex.use((req: Request, res: Response, next: NextFunction) => {
    if (!/%00/i.test(req.url)) return next();
    return sendProblem(
      res,
      problem(400, 'Bad Request', `The request URL ${NUL_MESSAGE}`, req.path, {
        errorKey: 'nul_refused',
      }),
    );
  });

  // API-key and session authentication, then the CSRF check (before any body is parsed).
  for (const handler of app.get(AuthPipeline).handlers()) ex.use(handler);

  // JSON bodies only, small (larger on the few routes that need it), and only for methods that
  // carry one (never on the follow path).
  const json = jsonBodyReader(JSON_BODY_LIMIT);
  const large = Object.fromEntries(
    Object.entries(LARGE_BODY_ROUTES).map(([path, limit]) => [path, jsonBodyReader(limit)]),
  );
  ex.use((req: Request, res: Response, next: NextFunction) => {
    if (!BODY_METHODS.has(req.method) || !hasBody(req)) return next();
    if (!req.is(['application/json', 'application/*+json'])) {
      return sendProblem(
        res,
        problem(415, 'Unsupported Media Type', 'Request body must be application/json', req.path, {
          errorKey: 'content_type_unsupported',
        }),
      );
    }
    // Read already by the create entry (shorts/create-http.ts), with this same reader.
    const read = (req as BodyReadRequest)[BODY_READ];
    if (read) return next(read.error);
    const parse =
      large[req.path.replace(/\/+$/, '')] ??
      (PAGE_ROUTE.test(req.path) ? large['/api/pages'] : json);
    return parse(req, res, next);
  });
  // A JSON null where the OpenAPI document allows none: 400 with fieldErrors (the document is
  // built below, before the app serves a request).
  const nulls = new BodyNullCheck();
  ex.use(nulls.middleware());
  // Failures in a middleware (session store, API-key lookup, …) get the same handling as in handlers.
  const failures = app.get(FailureReporter);
  ex.use((err: unknown, req: Request, res: Response, next: NextFunction) => {
    if (!err) return next();
    sendProblem(res, failures.request(err, failedRequest(req)));
  });

  app.useGlobalFilters(new ProblemFilter(failures));
  app.useGlobalPipes(createValidationPipe());
  // SIGTERM/SIGINT are handled by main.ts (common/stop-signals.ts): close, then exit 0.
  nulls.load(setupSwagger(app));
}
