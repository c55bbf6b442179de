import {
  Global,
  Injectable,
  Module,
  type OnModuleDestroy,
  type OnModuleInit,
} from '@nestjs/common';
import type { Redis } from 'ioredis';
import { FailureReporter } from '../failure/failure-reporter';
import { RedisConnection } from '../redis/redis.connection';

const PREFIX = 'url-shorter:';

/**
 * Cache invalidation across instances. With REDIS_URL set, a message published on a channel
 * reaches every instance (itself included) through Redis pub/sub; without Redis it is delivered
 * locally only, which is all a single instance needs. Publishing uses the shared connection;
 * subscribing needs a connection of its own.
 */
@Injectable()
export class CacheBus implements OnModuleInit, OnModuleDestroy {
  private readonly handlers = new Map<string, Array<(message: string) => void>>();
  private sub: Redis | null = null;

  constructor(
    private readonly redis: RedisConnection,
    private readonly failures: FailureReporter,
  ) {}

  async onModuleInit(): Promise<void> {
    this.sub = this.redis.duplicate();
    if (!this.sub) return;
    this.sub.on('message', (channel: string, message: string) =>
      this.deliver(channel.slice(PREFIX.length), message),
    );
    const channels = [...this.handlers.keys()].map((c) => PREFIX + c);
    // ioredis subscribes again by itself after a reconnect; a Redis down at boot is retried too.
    await this.sub
      .connect()
      .then(() => (channels.length ? this.sub?.subscribe(...channels) : undefined))
      .catch(() => undefined);
  }

  async onModuleDestroy(): Promise<void> {
    await this.sub?.quit().catch(() => undefined);
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
    this.redis.client
      ?.publish(PREFIX + channel, message)
      .catch((err: Error & { code?: string }) =>
        this.failures.redis.failure(err, err.code ?? err.name),
      );
  }

  private deliver(channel: string, message: string): void {
    for (const h of this.handlers.get(channel) ?? []) h(message);
  }
}

@Global()
@Module({ providers: [CacheBus], exports: [CacheBus] })
export class CacheBusModule {}
