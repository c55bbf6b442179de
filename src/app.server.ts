import type { Server } from 'node:http';
import type { INestApplication } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { installFollowEntry } from './follow/follow-http';
import { type CreateEntryDeps, installCreateEntry } from './shorts/create-http';
import { ShortService } from './shorts/short.service';
import { jsonBodyReader } from './common/json-body';
import { JSON_BODY_LIMIT } from './app.setup';
import { LogService } from './logging/log.service';
import { MetricsService } from './metrics/metrics.service';
import { FollowService } from './follow/follow.service';
import { APP_CONFIG, type AppConfig } from './config/config';
import { DomainRegistry } from './domains/domain-registry';
import type { TrustFn } from './common/client-address';
import { answerClientErrors } from './common/client-error';
import { closeGracefully } from './common/graceful-close';
import { FailureReporter } from './failure/failure-reporter';

/**
 * The HTTP server's own handlers, composed where the server is created (main.ts and the e2e test
 * app), after configureApp: the follow fast entry and the anonymous create's entry in front of
 * Express (follow/follow-http.ts, shorts/create-http.ts), problem+json answers for requests
 * Node's HTTP parser refuses, and a shutdown that ends every connection once its answer is out
 * (common/graceful-close.ts).
 */
export function composeHttpServer(app: INestApplication): void {
  const server = app.getHttpServer() as Server;
  const express = (app as NestExpressApplication).getHttpAdapter().getInstance() as {
    get(setting: string): unknown;
  };
  // The create entry first: the follow entry's fallback is the create entry, whose is Express.
  installCreateEntry(server, {
    shorts: app.get(ShortService),
    readBody: jsonBodyReader(JSON_BODY_LIMIT),
    trust: express.get('trust proxy fn') as TrustFn,
    failures: app.get(FailureReporter),
    log: app.get(LogService),
    metrics: app.get(MetricsService),
    etag: (express.get('etag fn') || undefined) as CreateEntryDeps['etag'],
  });
  installFollowEntry(server, {
    follow: app.get(FollowService),
    domains: app.get(DomainRegistry),
    baseUrl: app.get<AppConfig>(APP_CONFIG).baseUrl,
    // The trust function configureApp gave Express, so both see the same client address.
    trust: express.get('trust proxy fn') as TrustFn,
    failures: app.get(FailureReporter),
  });
  answerClientErrors(server);
  closeGracefully(server);
}
