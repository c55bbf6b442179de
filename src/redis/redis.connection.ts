import { Inject, Injectable, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { APP_CONFIG, type AppConfig } from '../config/config';

/**
 * Where connection trouble is counted: the Redis outage log, which the failure module provides
 * (FailureModule). A port, so that the connection knows nothing of the failure handling above it.
 */
export interface RedisTrouble {
  /** One failed call; `code` is a short error name safe for logs (never a message). */
  failure(err: unknown, code: string): void;
}
export const REDIS_TROUBLE = Symbol('REDIS_TROUBLE');

/**
 * The app's one Redis command connection (REDIS_URL), shared by sessions, the password limiter and
 * the cache bus's publishing side; null without REDIS_URL. Subscribers take a `duplicate()` (a
 * subscribed connection can run no other commands). Connection trouble goes to the Redis outage
 * log (a line when it starts, a count per interval), not one line per reconnect attempt.
 */
@Injectable()
export class RedisConnection implements OnModuleInit, OnApplicationShutdown {
  readonly client: Redis | null;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    @Inject(REDIS_TROUBLE) private readonly trouble: RedisTrouble,
  ) {
    this.client = config.redisUrl ? this.watch(connect(config.redisUrl)) : null;
  }

  /** The client while it is connected, else null (callers fall back to local state). */
  get ready(): Redis | null {
    return this.client?.status === 'ready' ? this.client : null;
  }

  /** A second connection with the same settings (for pub/sub), or null without REDIS_URL. */
  duplicate(): Redis | null {
    return this.client ? this.watch(this.client.duplicate()) : null;
  }

  /** Counts a failed call or connection error in the Redis outage log. */
  failed(err: Error & { code?: string }): void {
    this.trouble.failure(err, err.code ?? err.name);
  }

  private watch(r: Redis): Redis {
    r.on('error', (err: Error & { code?: string }) => this.failed(err));
    return r;
  }

  async onModuleInit(): Promise<void> {
    // A Redis that is down at boot does not stop the app: ioredis keeps reconnecting.
    await this.client?.connect().catch(() => undefined);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.client?.quit().catch(() => undefined);
  }
}

/**
 * No offline queue: a command while Redis is away fails at once instead of waiting for the
 * reconnect (every caller checks `ready` first and falls back, or answers 503).
 */
const OPTIONS = { lazyConnect: true, maxRetriesPerRequest: 2, enableOfflineQueue: false };

/** A client of REDIS_URL; ioredis is loaded only then (about 2 MB of heap unused without Redis). */
function connect(url: string): Redis {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { Redis: Client } = require('ioredis') as typeof import('ioredis');
  return new Client(url, OPTIONS);
}
