import {
  Global,
  Injectable,
  Module,
  type OnModuleDestroy,
  type OnModuleInit,
} from '@nestjs/common';
import type { Redis } from 'ioredis';
import { RedisConnection } from './redis.connection';

const PREFIX = 'url-shorter:';

/** Messages a publisher keeps while Redis is away; past this it asks every instance to resync. */
const MAX_MISSED = 1000;
/** The channel that tells every instance to drop what it may hold stale (see onResync). */
const RESYNC_CHANNEL = 'resync';

/**
 * Cache invalidation across instances. With REDIS_URL set, a message published on a channel
 * reaches every instance (itself included) through Redis pub/sub; without Redis it is delivered
 * locally only, which is all a single instance needs. Publishing uses the shared connection;
 * subscribing needs a connection of its own.
 *
 * Redis outages: a message that could not be published is kept (up to MAX_MISSED, beyond that a
 * resync request replaces them) and published when the connection is back; an instance whose
 * subscription was down may have missed messages, so when it is back it runs the resync handlers
 * (drop the follow cache, reload the blacklist). Nothing cached outlives an outage by more than the
 * reconnect, and never more than the caches' own TTL.
 */
@Injectable()
export class CacheBus implements OnModuleInit, OnModuleDestroy {
  private readonly handlers = new Map<string, Array<(message: string) => void>>();
  private readonly resyncHandlers: Array<() => void> = [];
  private sub: Redis | null = null;
  private missed: Array<[string, string]> = [];
  private missedOverflow = false;
  private live = false;

  constructor(private readonly redis: RedisConnection) {}

  async onModuleInit(): Promise<void> {
    this.redis.client?.on('ready', () => this.publishMissed());
    this.sub = this.redis.duplicate();
    if (!this.sub) return;
    const sub = this.sub;
    sub.on('message', (channel: string, message: string) =>
      this.deliver(channel.slice(PREFIX.length), message),
    );
    // Every (re)connect subscribes to every channel (also when Redis was down at boot, when there is
    // nothing for ioredis to resubscribe). Messages published before the subscription is confirmed
    // are lost to this instance, so the resync runs after the confirmation, never before it: what
    // was cached until then is dropped, and every later message arrives. Only the first connect at
    // boot has nothing to drop (nothing was served yet).
    let booting = true;
    sub.on('ready', () => {
      const resyncAfter = !booting;
      this.live = false;
      const channels = [...this.handlers.keys(), RESYNC_CHANNEL].map((c) => PREFIX + c);
      sub.subscribe(...channels).then(
        () => {
          if (resyncAfter) this.resync();
          this.live = sub.status === 'ready';
        },
        (err: Error & { code?: string }) => this.redis.failed(err),
      );
    });
    sub.on('close', () => (this.live = false));
    await sub.connect().catch(() => undefined);
    booting = false;
  }

  async onModuleDestroy(): Promise<void> {
    await this.sub?.quit().catch(() => undefined);
  }

  /**
   * Whether every message published from now on reaches this instance: always without Redis; with
   * it, once the subscription is confirmed (and the resync after a reconnect has run).
   */
  get subscribed(): boolean {
    return this.sub === null || this.live;
  }

  /** Registers a handler; call in a constructor (before module init subscribes). */
  on(channel: string, handler: (message: string) => void): void {
    const list = this.handlers.get(channel) ?? [];
    list.push(handler);
    this.handlers.set(channel, list);
    if (this.sub?.status === 'ready')
      void this.sub.subscribe(PREFIX + channel).catch(() => undefined);
  }

  /** Registers what to drop or reload when this instance may have missed messages. */
  onResync(handler: () => void): void {
    this.resyncHandlers.push(handler);
  }

  /** Delivers locally at once, and to the other instances through Redis when configured. */
  publish(channel: string, message: string): void {
    this.deliver(channel, message);
    this.send(channel, message);
  }

  private send(channel: string, message: string): void {
    const client = this.redis.client;
    if (!client) return;
    if (this.redis.ready !== client) return this.keep(channel, message);
    client.publish(PREFIX + channel, message).catch((err: Error & { code?: string }) => {
      this.redis.failed(err);
      this.keep(channel, message);
    });
  }

  private keep(channel: string, message: string): void {
    if (this.missedOverflow) return;
    if (this.missed.length >= MAX_MISSED) {
      this.missed = [];
      this.missedOverflow = true;
      return;
    }
    this.missed.push([channel, message]);
  }

  /** Publishes what could not be published while Redis was away. */
  private publishMissed(): void {
    const missed = this.missed;
    const overflow = this.missedOverflow;
    this.missed = [];
    this.missedOverflow = false;
    if (overflow) this.send(RESYNC_CHANNEL, '');
    for (const [channel, message] of missed) this.send(channel, message);
  }

  private resync(): void {
    for (const h of this.resyncHandlers) h();
  }

  private deliver(channel: string, message: string): void {
    if (channel === RESYNC_CHANNEL) return this.resync();
    for (const h of this.handlers.get(channel) ?? []) h(message);
  }
}

@Global()
@Module({ providers: [CacheBus], exports: [CacheBus] })
export class CacheBusModule {}
