import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import type * as SentryNode from '@sentry/node';
import type { ErrorEvent, NodeClient } from '@sentry/node';
import { APP_CONFIG, type AppConfig } from '../config/config';
import { APP_VERSION } from '../config/version';
import { LogService } from '../logging/log.service';

export interface ErrorContext {
  requestId?: string;
  method?: string;
  /** Path only: query strings may carry passwords and are never sent. */
  path?: string;
  route?: string;
  status?: number;
}

/**
 * Server error reporting with @sentry/node, active only when SENTRY_DSN is set. One client per
 * app (no global SDK state, no automatic instrumentation): unexpected 5xx and crashes are sent
 * explicitly with the request id. Events carry no headers, cookies, query strings, user data or
 * request bodies, and `beforeSend` scrubs every string against the known secrets.
 */
@Injectable()
export class SentryService implements OnApplicationShutdown {
  private readonly client: NodeClient | null = null;
  private readonly sdk: typeof SentryNode | null = null;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly log: LogService,
  ) {
    if (!config.sentryDsn) return;
    // Loaded only when configured: the SDK holds about 7 MB of heap (docs/performance.md, "Memory").
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const sdk = require('@sentry/node') as typeof SentryNode;
    const { defaultStackParser, makeNodeTransport, NodeClient } = sdk;
    this.sdk = sdk;
    this.client = new NodeClient({
      dsn: config.sentryDsn,
      release: `url-shorter@${APP_VERSION}`,
      environment: config.nodeEnv,
      transport: makeNodeTransport,
      stackParser: defaultStackParser,
      integrations: [],
      sendClientReports: false,
      tracesSampleRate: 0,
      beforeSend: (event) => this.scrub(event),
    });
    this.client.init();
    this.log.write('debug', 'sentry', 'Error reporting enabled');
  }

  get enabled(): boolean {
    return this.client !== null;
  }

  /** Reports an unexpected error. Never throws. */
  capture(err: unknown, ctx: ErrorContext = {}): void {
    if (!this.client || !this.sdk) return;
    try {
      const scope = new this.sdk.Scope();
      scope.setClient(this.client);
      if (ctx.requestId) scope.setTag('request_id', ctx.requestId);
      if (ctx.route) scope.setTag('route', ctx.route);
      if (ctx.status) scope.setTag('status', String(ctx.status));
      if (ctx.method || ctx.path)
        scope.setContext('request', { method: ctx.method, path: ctx.path });
      this.client.captureException(err, { originalException: err }, scope);
    } catch (e) {
      this.log.write('warn', 'sentry', `Could not report an error: ${String(e)}`);
    }
  }

  flush(timeoutMs = 2000): Promise<boolean> {
    return this.client ? Promise.resolve(this.client.flush(timeoutMs)) : Promise.resolve(true);
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.client) await this.client.close(2000);
  }

  private scrub(event: ErrorEvent): ErrorEvent {
    delete event.request; // no url, query, headers, cookies or body
    delete event.user;
    delete event.breadcrumbs;
    delete event.server_name;
    return this.log.redactor.scrubValue(event) as ErrorEvent;
  }
}
