import type { INestApplication } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import express, { type NextFunction, type Request, type Response } from 'express';
import { AuthPipeline } from './account/auth-pipeline';
import type { AppConfig } from './config/config';
import { ProblemFilter, sendProblem, toProblem } from './common/problem.filter';
import { problem } from './common/problem';
import { createValidationPipe } from './common/validation';
import { setupSwagger } from './openapi/document';
import { CodeService } from './code/code.service';
import { installFollowFastPath } from './code/follow';

export const JSON_BODY_LIMIT = '16kb';

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

function hasBody(req: Request): boolean {
  return req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
}

/** Everything the running app and the e2e tests share: parsers, errors, headers, docs. */
export function configureApp(app: INestApplication, config: AppConfig): void {
  const ex = app as NestExpressApplication;
  ex.disable('x-powered-by');
  ex.set('trust proxy', config.trustProxy);
  ex.set('query parser', 'simple');

  ex.use((_req: Request, res: Response, next: NextFunction) => {
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('X-Frame-Options', 'DENY');
    res.setHeader('Referrer-Policy', 'strict-origin-when-cross-origin');
    next();
  });

  // API-key and session authentication, then the CSRF check (before any body is parsed).
  for (const handler of app.get(AuthPipeline).handlers()) ex.use(handler);

  // JSON bodies only, small, and only for methods that carry one (never on the follow path).
  const json = express.json({
    limit: JSON_BODY_LIMIT,
    type: ['application/json', 'application/*+json'],
    // Prototype keys are never data: refuse the body as malformed.
    reviver: (key: string, value: unknown) => {
      if (key === '__proto__' || key === 'constructor' || key === 'prototype') {
        throw new SyntaxError('Forbidden key in JSON body');
      }
      return value;
    },
  });
  ex.use((req: Request, res: Response, next: NextFunction) => {
    if (!BODY_METHODS.has(req.method) || !hasBody(req)) return next();
    if (!req.is(['application/json', 'application/*+json'])) {
      return sendProblem(res, problem(415, 'Unsupported Media Type', 'Request body must be application/json', req.path));
    }
    return json(req, res, next);
  });
  ex.use((err: unknown, req: Request, res: Response, next: NextFunction) => {
    if (!err) return next();
    sendProblem(res, toProblem(err, req.path).body);
  });

  app.useGlobalFilters(new ProblemFilter());
  app.useGlobalPipes(createValidationPipe());
  app.enableShutdownHooks();
  setupSwagger(app);

  // The follow hot path answers before Express and Nest routing (see code/follow.ts).
  installFollowFastPath(app.getHttpServer(), app.get(CodeService), config.trustProxy);
}
