import {
  Global,
  Inject,
  Injectable,
  Logger,
  Module,
  type OnModuleDestroy,
  type OnModuleInit,
} from '@nestjs/common';
import { Redis } from 'ioredis';
import { APP_CONFIG, type AppConfig } from '../config/config';

const PREFIX = 'url-shorter:';

/**
 * Cache invalidation across instances. With REDIS_URL set, a message published on a
 * channel reaches every instance (itself included) through Redis pub/sub; without Redis
 * it is delivered locally only, which is all a single instance needs.
 */
@Injectable()
export class CacheBus implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(CacheBus.name);
  private readonly handlers = new Map<string, Array<(message: string) => void>>();
  private pub?: Redis;
  private sub?: Redis;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  async onModuleInit(): Promise<void> {
    if (!this.config.redisUrl) return;
    const options = { lazyConnect: true, maxRetriesPerRequest: 2, enableOfflineQueue: true };
    this.pub = new Redis(this.config.redisUrl, options);
    this.sub = new Redis(this.config.redisUrl, options);
    for (const r of [this.pub, this.sub]) {
      r.on('error', (err: Error) => this.logger.warn(`Redis (cache bus): ${err.message}`));
    }
    this.sub.on('message', (channel: string, message: string) =>
      this.deliver(channel.slice(PREFIX.length), message),
    );
    try {
      await Promise.all([this.pub.connect(), this.sub.connect()]);
      const channels = [...this.handlers.keys()].map((c) => PREFIX + c);
      if (channels.length) await this.sub.subscribe(...channels);
    } catch (err) {
      this.logger.warn(`Redis (cache bus) unavailable, invalidation stays local: ${String(err)}`);
    }
  }

  async onModuleDestroy(): Promise<void> {
    await Promise.allSettled([this.pub?.quit(), this.sub?.quit()]);
  }

  /** The Redis command connection (REDIS_URL set), for other shared state such as rate limits. */
  get redis(): Redis | undefined {
    return this.pub;
  }

  /** Registers a handler; call in a constructor (before module init subscribes). */
  on(channel: string, handler: (message: string) => void): void {
    const list = this.handlers.get(channel) ?? [];
    list.push(handler);
    this.handlers.set(channel, list);
    if (this.sub?.status === 'ready') void this.sub.subscribe(PREFIX + channel);
  }

  /** Delivers locally at once, and to the other instances through Redis when configured. */
  publish(channel: string, message: string): void {
    this.deliver(channel, message);
    this.pub?.publish(PREFIX + channel, message).catch((err: unknown) => {
      this.logger.warn(`Redis publish failed: ${String(err)}`);
    });
  }

  private deliver(channel: string, message: string): void {
    for (const h of this.handlers.get(channel) ?? []) h(message);
  }
}

@Global()
@Module({ providers: [CacheBus], exports: [CacheBus] })
export class CacheBusModule {}
