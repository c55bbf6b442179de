import { Injectable, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { CacheBus } from '../redis/cache-bus';
import { keptAnswer } from '../common/kept-answers';
import { dialectSql, engineOf } from '../database/dialect';
import { FailureReporter } from '../failure/failure-reporter';
import { requestHost } from './domain-host';
import { DomainEntity } from './domain.entity';

/**
 * The channel on the cache bus that names one changed domain (its id): every instance re-reads
 * that row alone.
 */
export const DOMAIN_CHANGED_CHANNEL = 'domain-changed';
/**
 * A full resync at least this often (a message missed while Redis was away heals by itself; a
 * reconnect resyncs at once). Read in pages that yield to the event loop.
 */
export const RESYNC_MS = 5 * 60_000;
/** A read of changed domains that failed is tried again this much later. */
const RETRY_MS = 5_000;
/** Rows per page of a full resync, and ids per read of changed domains. */
const PAGE_ROWS = 500;

/** What the follow path and the create rules need of a domain. */
export interface KnownDomain {
  id: string;
  host: string;
  ownerId: string | null;
  /** The team it belongs to, or null. */
  teamId: string | null;
  verified: boolean;
  enabled: boolean;
  homeRedirect: string | null;
  notFoundRedirect: string | null;
  /** The link page its `/` shows (src/pages), or null. */
  homePage: string | null;
}

/** How many distinct `Host` headers keep their normalised host (a few in practice). */
const HOST_HEADERS_MAX = 256;

const COLUMNS =
  'id, host, owner_id, team_id, verified, enabled, home_redirect, not_found_redirect, home_page';

function knownOf(r: Record<string, unknown>): KnownDomain {
  return {
    id: r.id as string,
    host: r.host as string,
    ownerId: (r.owner_id as string | null) ?? null,
    teamId: (r.team_id as string | null) ?? null,
    verified: Number(r.verified) === 1 || r.verified === true,
    enabled: Number(r.enabled) === 1 || r.enabled === true,
    homeRedirect: (r.home_redirect as string | null) ?? null,
    notFoundRedirect: (r.not_found_redirect as string | null) ?? null,
    homePage: (r.home_page as string | null) ?? null,
  };
}

interface Round {
  promise: Promise<void>;
  resolve: () => void;
}

function newRound(): Round {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

/**
 * The verified domains, in memory, by host: the follow entry resolves a request's `Host` here
 * without a query. Pending claims are not held (several users may claim one host; none of them
 * serves it), so a claim never shadows the verified domain of its host.
 *
 * A change to one domain is applied as one change (CONTRACT "Hardening"): the instance that made
 * it re-reads that row and publishes its id on the cache bus; every instance re-reads only that
 * row (or drops it). Ids changed at once are read together, in pages; an id changed while its read
 * is under way is read again after it. Besides, a full resync every RESYNC_MS and after a Redis
 * reconnect reads every verified domain in pages of PAGE_ROWS, yielding to the event loop between
 * them, and swaps the new map in whole; changes applied meanwhile are read again after the swap.
 */
@Injectable()
export class DomainRegistry implements OnModuleInit, OnApplicationShutdown {
  private byHost = new Map<string, KnownDomain>();
  /** The host each held domain is held under (by id): a domain that is gone is found by its id. */
  private hostById = new Map<string, string>();
  /** `Host` headers seen lately, normalised (requestHost); at most HOST_HEADERS_MAX, then dropped. */
  private readonly hosts = new Map<string, string | null>();
  private timer?: NodeJS.Timeout;

  /** Ids to read again; the round that will read them; the round reading now. */
  private readonly dirty = new Set<string>();
  private waiting: Round | null = null;
  private reading: Promise<void> = Promise.resolve();

  /** The full resync under way (at most one more is queued behind it). */
  private resync: Promise<void> | null = null;
  private resyncQueued: Promise<void> | null = null;
  /** Ids changed while a full resync reads: read again after its swap. */
  private touched: Set<string> | null = null;

  constructor(
    @InjectRepository(DomainEntity) private readonly repo: Repository<DomainEntity>,
    private readonly bus: CacheBus,
    private readonly failures: FailureReporter,
  ) {
    bus.on(DOMAIN_CHANGED_CHANNEL, (id) => void this.refresh(id));
    bus.onResync(() => void this.reload());
  }

  async onModuleInit(): Promise<void> {
    await this.reload();
    this.timer = setInterval(() => void this.reload(), RESYNC_MS);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
  }

  /**
   * The domain that serves a host: its verified domain (enabled or disabled), or undefined (no
   * domain, or only pending claims).
   */
  get(host: string): KnownDomain | undefined {
    return this.byHost.get(host);
  }

  /** How many verified domains are held. */
  get size(): number {
    return this.byHost.size;
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
   * A domain (by id) was added, changed or deleted: re-reads it here, then tells every instance to
   * re-read it. The caller's next request on this instance (a short on the domain just verified)
   * sees the change.
   */
  async changed(...ids: string[]): Promise<void> {
    await Promise.all(ids.map((id) => this.refresh(id)));
    for (const id of ids) this.bus.publish(DOMAIN_CHANGED_CHANNEL, id);
  }

  /** Re-reads one domain (after any read of it under way); resolves when it is applied. */
  refresh(id: string): Promise<void> {
    this.dirty.add(id);
    this.touched?.add(id);
    if (this.waiting) return this.waiting.promise;
    const round = newRound();
    this.waiting = round;
    const previous = this.reading;
    this.reading = previous.then(async () => {
      // From here on, ids marked go to the next round (they may have changed after this read).
      this.waiting = null;
      const ids = [...this.dirty];
      this.dirty.clear();
      try {
        await this.readIds(ids);
      } catch (err) {
        this.failures.background(err, 'Loading changed domains', DomainRegistry.name);
        // The database is away: read them again a little later (the resync is minutes away).
        setTimeout(() => ids.forEach((id) => void this.refresh(id)), RETRY_MS).unref();
      } finally {
        round.resolve();
      }
    });
    return round.promise;
  }

  /**
   * Reads every verified domain again (in pages) and swaps the new map in; a failure keeps the
   * old map. A call while one runs waits for the next one, which starts after it.
   */
  reload(): Promise<void> {
    if (this.resyncQueued) return this.resyncQueued;
    if (!this.resync) {
      this.resync = this.resyncNow().finally(() => (this.resync = null));
      return this.resync;
    }
    this.resyncQueued = this.resync.then(() => {
      this.resyncQueued = null;
      return this.reload();
    });
    return this.resyncQueued;
  }

  private sql(text: string): string {
    return dialectSql(engineOf(this.repo.manager.connection), text);
  }

  private async readIds(ids: readonly string[]): Promise<void> {
    for (let i = 0; i < ids.length; i += PAGE_ROWS) {
      const page = ids.slice(i, i + PAGE_ROWS);
      const rows = (await this.repo.manager.query(
        this.sql(
          `SELECT ${COLUMNS} FROM domains WHERE id IN (${page.map(() => '?').join(', ')}) AND verified_host IS NOT NULL`,
        ),
        page,
      )) as Array<Record<string, unknown>>;
      const found = new Map(rows.map((r) => [r.id as string, knownOf(r)]));
      for (const id of page) this.apply(id, found.get(id));
    }
  }

  /** Puts a domain's new state into the map: held when verified, else dropped. */
  private apply(id: string, d: KnownDomain | undefined): void {
    this.touched?.add(id); // read before or after the resync's page: read again after its swap
    const old = this.hostById.get(id);
    if (old !== undefined && this.byHost.get(old)?.id === id) this.byHost.delete(old);
    this.hostById.delete(id);
    if (d) {
      this.byHost.set(d.host, d);
      this.hostById.set(id, d.host);
    }
  }

  private async resyncNow(): Promise<void> {
    this.touched = new Set();
    try {
      const byHost = new Map<string, KnownDomain>();
      const hostById = new Map<string, string>();
      let after = '';
      for (;;) {
        const rows = (await this.repo.manager.query(
          this.sql(
            `SELECT ${COLUMNS} FROM domains WHERE verified_host IS NOT NULL AND id > ? ORDER BY id LIMIT ${PAGE_ROWS}`,
          ),
          [after],
        )) as Array<Record<string, unknown>>;
        for (const r of rows) {
          const d = knownOf(r);
          byHost.set(d.host, d);
          hostById.set(d.id, d.host);
        }
        if (rows.length < PAGE_ROWS) break;
        after = rows[rows.length - 1].id as string;
        await new Promise((resolve) => setImmediate(resolve));
      }
      this.byHost = byHost;
      this.hostById = hostById;
    } catch (err) {
      this.failures.background(err, 'Loading the domains', DomainRegistry.name);
    } finally {
      const touched = this.touched;
      this.touched = null;
      // What changed while the pages were read may be older in the new map: read it again.
      await Promise.all([...touched].map((id) => this.refresh(id)));
    }
  }
}
