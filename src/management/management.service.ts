import { Inject, Injectable, type OnApplicationBootstrap, RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { DiscoveryService, MetadataScanner } from '@nestjs/core';
import { APP_CONFIG, type AppConfig } from '../config/config';
import { APP_VERSION } from '../config/version';
import { LogService } from '../logging/log.service';
import { type BuildInfo, loadBuildInfo } from './build-info';

export interface RouteMapping {
  method: string;
  path: string;
  handler: string;
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

  /**
   * The configuration variables of the table (src/config/variables.ts): secrets as set/unset, URLs
   * with credentials with their password masked, every other one that is set with its value
   * (scrubbed by the log redactor). Nothing outside the table.
   */
  env(): Record<string, unknown> {
    const props: Record<string, { value: string | null }> = {};
    for (const [name, value] of Object.entries(this.config.envView)) {
      props[name] = { value: value === null ? null : this.log.redactor.scrub(value) };
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
