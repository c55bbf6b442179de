import { Inject, Injectable, type OnApplicationBootstrap, RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { DiscoveryService, MetadataScanner } from '@nestjs/core';
import { APP_CONFIG, type AppConfig } from '../config/config';
import { APP_VERSION } from '../config/version';
import { MASK } from '../logging/redact';
import { LogService } from '../logging/log.service';
import { type BuildInfo, loadBuildInfo } from './build-info';

export interface RouteMapping {
  method: string;
  path: string;
  handler: string;
}

/** Variables shown by /management/env, by name. Anything not listed here is never shown. */
const PLAIN = [
  'NODE_ENV',
  'PORT',
  'BASE_URL',
  'DB_FILE',
  'ADMIN_USERS',
  'REPORT_THRESHOLD',
  'UNLEASH_URL',
  'FLAGS',
  'LOG_LEVEL',
  'LOG_BUFFER_SIZE',
  'LOG_STDOUT',
  'METADATA_ALLOW_LOOPBACK',
  'METADATA_ALLOWED_PORTS',
  'ANON_RETENTION_DAYS',
  'PASSWORD_MAX_TRIES',
  'PASSWORD_LOCK_SECONDS',
  'SHORT_CACHE_SIZE',
  'TRUST_PROXY',
  'DB_TIMEOUT_MS',
  'SESSION_IDLE_TIMEOUT',
  'SESSION_MAX_AGE',
  'WEB_DIR',
] as const;
/** Shown only as set/unset (masked). */
const SECRET = [
  'APP_SECRET',
  'UNLEASH_CLIENT_KEY',
  'SENTRY_DSN',
  'SENTRY_DSN_WEB',
  'METRICS_TOKEN',
] as const;
/** URLs that may carry credentials: shown with the password masked. */
const URLS = ['DB_URL', 'REDIS_URL'] as const;

function maskUrl(raw: string): string {
  try {
    const u = new URL(raw);
    if (u.password) u.password = MASK;
    return u.toString();
  } catch {
    return MASK;
  }
}

@Injectable()
export class ManagementService implements OnApplicationBootstrap {
  readonly build: BuildInfo;
  private routes: RouteMapping[] = [];

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly log: LogService,
  ) {
    this.build = loadBuildInfo();
  }

  /** Collects the route table once, when every module is ready. */
  onApplicationBootstrap(): void {
    const routes: RouteMapping[] = [];
    for (const wrapper of this.discovery.getControllers()) {
      const type = wrapper.metatype as (new (...args: never[]) => unknown) | undefined;
      if (!type) continue;
      const base = Reflect.getMetadata(PATH_METADATA, type) as string | string[] | undefined;
      const bases = (Array.isArray(base) ? base : [base ?? '']).map((b) =>
        b.replace(/^\/+|\/+$/g, ''),
      );
      for (const name of this.scanner.getAllMethodNames(type.prototype as object)) {
        const fn = (type.prototype as Record<string, unknown>)[name] as object;
        const path = Reflect.getMetadata(PATH_METADATA, fn) as string | string[] | undefined;
        const method = Reflect.getMetadata(METHOD_METADATA, fn) as RequestMethod | undefined;
        if (path === undefined || method === undefined) continue;
        for (const b of bases) {
          for (const p of Array.isArray(path) ? path : [path]) {
            const full = '/' + [b, p.replace(/^\/+|\/+$/g, '')].filter(Boolean).join('/');
            routes.push({
              method: RequestMethod[method],
              path: full,
              handler: `${type.name}.${name}`,
            });
          }
        }
      }
    }
    this.routes = routes.sort(
      (a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method),
    );
  }

  mappings(): RouteMapping[] {
    return this.routes;
  }

  info(): Record<string, unknown> {
    return {
      app: {
        name: 'url-shorter',
        description: 'Self-hosted URL shortener with a German interface',
        version: APP_VERSION,
      },
      build: { name: 'url-shorter', version: APP_VERSION, time: this.build.time },
      git: {
        branch: this.build.branch,
        commit: { id: this.build.commit.id, time: this.build.commit.time },
      },
      runtime: { node: process.version, database: this.config.db.type },
    };
  }

  /** Only allow-listed settings; secrets appear as set/unset, URLs with their password masked. */
  env(): Record<string, unknown> {
    const env = this.config.env;
    const props: Record<string, { value: string | null }> = {};
    const scrub = (v: string) => this.log.redactor.scrub(v);
    for (const k of PLAIN) if (env[k] !== undefined) props[k] = { value: scrub(String(env[k])) };
    for (const k of URLS) if (env[k]) props[k] = { value: scrub(maskUrl(String(env[k]))) };
    for (const k of SECRET) props[k] = { value: env[k] ? MASK : null };
    for (const k of Object.keys(env).sort()) {
      if (!k.startsWith('AUTH_') || env[k] === undefined) continue;
      props[k] = { value: /SECRET|PASSWORD|KEY|TOKEN/.test(k) ? MASK : scrub(String(env[k])) };
    }
    return {
      activeProfiles: [this.config.nodeEnv],
      propertySources: [
        {
          name: 'effectiveConfig',
          properties: {
            'database.type': { value: this.config.db.type },
            'log.level': { value: this.config.logLevel },
            'report.threshold': { value: String(this.config.reportThreshold) },
            'base.url': { value: this.config.baseUrl },
          },
        },
        { name: 'environment', properties: props },
      ],
    };
  }
}
