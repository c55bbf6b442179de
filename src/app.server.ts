import { readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { INestApplication } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { installFollowEntry } from './follow/follow-http';
import { type CreateEntryDeps, installCreateEntry } from './shorts/create-http';
import { ShortCreateService } from './shorts/short-create.service';
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
import { installPageEntry } from './pages/page-http';
import { PageRenderer } from './pages/page-renderer';

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
    shorts: app.get(ShortCreateService),
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
  // Link pages in front of the follows: `/p/{slug}` and an own domain's home page.
  installPageEntry(server, {
    pages: app.get(PageRenderer),
    domains: app.get(DomainRegistry),
    baseUrl: app.get<AppConfig>(APP_CONFIG).baseUrl,
    failures: app.get(FailureReporter),
  });
  answerClientErrors(server);
  closeGracefully(server);
}

/**
 * The listen backlog asked for: how many connections the kernel completes and queues for the
 * server before it accepts them. Node's default (511) overflowed under 2,000 concurrent follows
 * (the kernel then drops handshakes: answers wait for retransmissions, or the connections are
 * reset where `net.ipv4.tcp_abort_on_overflow` is on). The kernel caps it at `net.core.somaxconn`.
 */
export const LISTEN_BACKLOG = 65_535;

/** `net.core.somaxconn` (Linux; undefined elsewhere): the cap of any listen backlog. */
export function kernelBacklogCap(file = '/proc/sys/net/core/somaxconn'): number | undefined {
  try {
    const n = Number(readFileSync(file, 'utf8').trim());
    return Number.isInteger(n) && n > 0 ? n : undefined;
  } catch {
    return undefined;
  }
}

/** Below this cap the start says that a burst of connections may wait or be dropped. */
export const SMALL_BACKLOG = 1024;

/** A warning when the kernel caps the listen backlog low (null: no cap known, or a large one). */
export function backlogWarning(cap = kernelBacklogCap()): string | null {
  if (cap === undefined || cap >= SMALL_BACKLOG) return null;
  return (
    `net.core.somaxconn is ${cap}: at most ${cap} connections wait to be accepted; ` +
    `a larger burst waits for retransmissions or is reset (raise it, e.g. to 4096)`
  );
}

/**
 * Listens on `port` (and `host`, else every address) with LISTEN_BACKLOG: main.ts and the e2e test
 * app listen alike. Nest hands the arguments to the HTTP server's listen (port, host, backlog).
 */
export async function listenApp(app: INestApplication, port: number, host?: string): Promise<void> {
  const listen = app.listen.bind(app) as (...args: unknown[]) => Promise<unknown>;
  await (host === undefined ? listen(port, LISTEN_BACKLOG) : listen(port, host, LISTEN_BACKLOG));
}
