import { Inject, Injectable, ServiceUnavailableException } from '@nestjs/common';
import {
  HealthCheckService,
  HealthIndicatorService,
  type HealthIndicatorFunction,
} from '@nestjs/terminus';
import { existsSync } from 'node:fs';
import { statfs } from 'node:fs/promises';
import { dirname } from 'node:path';
import { DataSource } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../config/config';

export type HealthGroup = 'all' | 'liveness' | 'readiness';
export type HealthStatus = 'UP' | 'DOWN';

export interface HealthComponent {
  status: HealthStatus;
  details?: Record<string, unknown>;
}

export interface HealthReport {
  status: HealthStatus;
  components: Record<string, HealthComponent>;
  groups?: string[];
}

const DB_TIMEOUT_MS = 2000;
const DATABASE_NAMES = {
  sqlite: 'SQLite',
  mysql: 'MySQL/MariaDB',
  postgres: 'PostgreSQL',
} as const;
/** Disk is DOWN when less than this share of the data folder's file system is free. */
const MIN_FREE_DISK_RATIO = 0.02;
/** Liveness is DOWN when the heap is above this many bytes (a leak the process cannot recover from). */
const HEAP_LIMIT_BYTES = 1536 * 1024 * 1024;

/** The folder itself, or its nearest existing parent (the data folder may not exist yet with MySQL). */
function existingAncestor(dir: string): string {
  let d = dir;
  while (!existsSync(d) && dirname(d) !== d) d = dirname(d);
  return d;
}

/**
 * Health checks on Terminus: `db` (a ping with a timeout; reconnects by itself through the pool),
 * `disk` (free space of the data folder) and `memory` (heap). Groups as Kubernetes probes use
 * them: liveness = memory (a lost database must not restart the process), readiness = db and disk.
 */
@Injectable()
export class HealthService {
  constructor(
    private readonly health: HealthCheckService,
    private readonly indicator: HealthIndicatorService,
    private readonly ds: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  private db(): HealthIndicatorFunction {
    return () =>
      this.indicator
        .check('db')
        .attempt(async () => {
          if (!this.ds.isInitialized) throw new Error('database not connected');
          try {
            // SQLite is read locally even when it cannot be written (locked by another process,
            // read-only file): a statement that takes the write lock and changes nothing.
            await this.ds.query(
              this.config.db.type === 'sqlite' ? 'DELETE FROM job_locks WHERE 1 = 0' : 'SELECT 1',
            );
          } catch {
            // No driver message in the answer (it may name hosts or users).
            throw new Error('database not reachable');
          }
          return { database: DATABASE_NAMES[this.config.db.type] };
        })
        .withTimeout(DB_TIMEOUT_MS);
  }

  private disk(): HealthIndicatorFunction {
    return async () => {
      const check = this.indicator.check('disk');
      try {
        const s = await statfs(existingAncestor(this.config.dataDir));
        const total = s.blocks * s.bsize;
        const free = s.bavail * s.bsize;
        const details = { total, free, threshold: Math.round(total * MIN_FREE_DISK_RATIO) };
        return free / total >= MIN_FREE_DISK_RATIO ? check.up(details) : check.down(details);
      } catch {
        return check.down({ message: 'data folder not readable' });
      }
    };
  }

  private memory(): HealthIndicatorFunction {
    return () => {
      const check = this.indicator.check('memory');
      const { heapUsed, rss } = process.memoryUsage();
      const details = { heapUsed, rss, heapLimit: HEAP_LIMIT_BYTES };
      return heapUsed < HEAP_LIMIT_BYTES ? check.up(details) : check.down(details);
    };
  }

  async check(group: HealthGroup): Promise<HealthReport> {
    const fns =
      group === 'liveness'
        ? [this.memory()]
        : group === 'readiness'
          ? [this.db(), this.disk()]
          : [this.db(), this.disk(), this.memory()];
    let result: {
      status: string;
      details?: Record<string, { status: string } & Record<string, unknown>>;
    };
    try {
      result = await this.health.check(fns);
    } catch (err) {
      if (!(err instanceof ServiceUnavailableException)) throw err;
      result = err.getResponse() as typeof result;
    }
    const components: Record<string, HealthComponent> = {};
    for (const [name, v] of Object.entries(result.details ?? {})) {
      const { status, ...details } = v;
      components[name] = {
        status: status === 'up' ? 'UP' : 'DOWN',
        ...(Object.keys(details).length ? { details } : {}),
      };
    }
    const report: HealthReport = { status: result.status === 'ok' ? 'UP' : 'DOWN', components };
    if (group === 'all') report.groups = ['liveness', 'readiness'];
    return report;
  }
}
