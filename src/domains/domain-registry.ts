import { Injectable, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { CacheBus } from '../common/cache-bus';
import { keptAnswer } from '../common/kept-answers';
import { FailureReporter } from '../failure/failure-reporter';
import { requestHost } from './domain-host';
import { DomainEntity } from './domain.entity';

/** The channel on the cache bus that tells every instance to reload its domains. */
export const DOMAINS_CHANGED_CHANNEL = 'domains-changed';
/** A reload at least this often (a missed message heals by itself). */
const RELOAD_MS = 30_000;

/** What the follow path and the create rules need of a domain. */
export interface KnownDomain {
  id: string;
  host: string;
  ownerId: string | null;
  verified: boolean;
  enabled: boolean;
  homeRedirect: string | null;
  notFoundRedirect: string | null;
}

/** How many distinct `Host` headers keep their normalised host (a few in practice). */
const HOST_HEADERS_MAX = 256;

/**
 * Every domain, in memory, by host: the follow entry resolves a request's `Host` here without a
 * query. Reloaded whole on every instance after a change (domains are few: a reload is one small
 * query), after a Redis reconnect, and every 30 s.
 */
@Injectable()
export class DomainRegistry implements OnModuleInit, OnApplicationShutdown {
  private byHost = new Map<string, KnownDomain>();
  /** `Host` headers seen lately, normalised (requestHost); at most HOST_HEADERS_MAX, then dropped. */
  private readonly hosts = new Map<string, string | null>();
  private timer?: NodeJS.Timeout;
  private queue: Promise<void> = Promise.resolve();

  constructor(
    @InjectRepository(DomainEntity) private readonly repo: Repository<DomainEntity>,
    private readonly bus: CacheBus,
    private readonly failures: FailureReporter,
  ) {
    bus.on(DOMAINS_CHANGED_CHANNEL, () => void this.reload());
    bus.onResync(() => void this.reload());
  }

  async onModuleInit(): Promise<void> {
    await this.reload();
    this.timer = setInterval(() => void this.reload(), RELOAD_MS);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
  }

  /** The domain of a host (any state), or undefined. */
  get(host: string): KnownDomain | undefined {
    return this.byHost.get(host);
  }

  /**
   * The verified domain a request was sent to (its `Host`; enabled or disabled), or undefined: an
   * unknown or unverified host is this service's own host and never reaches a domain's shorts.
   */
  ofRequest(hostHeader: string | undefined): KnownDomain | undefined {
    if (this.byHost.size === 0 || !hostHeader) return undefined;
    const host = keptAnswer(this.hosts, HOST_HEADERS_MAX, hostHeader, requestHost);
    const d = host === null ? undefined : this.byHost.get(host);
    return d?.verified ? d : undefined;
  }

  /** The domain a follow may use: verified and enabled. */
  followable(host: string): KnownDomain | undefined {
    const d = this.byHost.get(host);
    return d && d.verified && d.enabled ? d : undefined;
  }

  /**
   * Reloads here, then tells every instance to reload: the caller's next request on this instance
   * (a short on the domain just added) sees the change.
   */
  async changed(): Promise<void> {
    await this.reload();
    this.bus.publish(DOMAINS_CHANGED_CHANNEL, '1');
  }

  /**
   * Loads every domain, after any load that is running (it may have read before the change that
   * asks for this one); a failure keeps the old map.
   */
  reload(): Promise<void> {
    this.queue = this.queue.then(() =>
      this.load().catch((err) => {
        this.failures.background(err, 'Loading the domains', DomainRegistry.name);
      }),
    );
    return this.queue;
  }

  private async load(): Promise<void> {
    const rows = await this.repo.find();
    this.byHost = new Map(
      rows.map((d) => [
        d.host,
        {
          id: d.id,
          host: d.host,
          ownerId: d.ownerId,
          verified: d.verified,
          enabled: d.enabled,
          homeRedirect: d.homeRedirect,
          notFoundRedirect: d.notFoundRedirect,
        },
      ]),
    );
  }
}
