import { Inject, Injectable, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { BlacklistService } from '../blacklist/blacklist.service';
import { CacheBus } from '../redis/cache-bus';
import { APP_CONFIG, type AppConfig } from '../config/config';
import { CountBuffer } from '../database/count-buffer';
import { FailureReporter } from '../failure/failure-reporter';
import { MetricsService } from '../metrics/metrics.service';
import { PasswordLimiter } from '../shorts/password-limiter';
import {
  ClaimOutcomeUnknownError,
  followKey,
  type FollowRow,
  FollowStore,
  SHORT_CHANGED_CHANNEL,
} from '../shorts/follow-store';
import type { Language } from '../shared/language';
import type { RedirectRule, TargetName } from '../shared/redirect-rules';
import { chooseRule } from './rule-match';
import type { SocialPreview } from '../shared/social-preview';
import { isCardAgent } from './card-agents';

const CACHE_TTL_MS = 30_000;
const MISSING_TTL_MS = 2_000;
const USES_FLUSH_MS = 1_000;

/** What the follow path needs of a short; kept in the in-process cache. */
interface CachedShort {
  id: string;
  name: string | null;
  url: string;
  passwordHash: string | null;
  maxUses: number | null;
  expireAt: number | null;
  dangerous: boolean;
  /** Where visitors go after expiry or exhaustion (null: the not-found page). */
  expiredUrl: string | null;
  /** The redirect rules, in order (null: none). */
  rules: RedirectRule[] | null;
  /** The social preview for link-card crawlers (null: none). */
  preview: SocialPreview | null;
  /** Whether a user or a team owns it (an anonymous short has no webhooks). */
  owned: boolean;
  /**
   * Blacklist verdicts of `url`, of each rule's url and of `expiredUrl`, valid while
   * `blacklistVersion` matches the blacklist's version.
   */
  blacklisted: boolean;
  rulesBlacklisted: boolean[];
  expiredBlacklisted: boolean;
  blacklistVersion: number;
}
/** Why a code is not followed: unknown, past its expiry, or its uses spent. */
export type NotFoundReason = 'unknown' | 'expired' | 'used-up';
interface Missing {
  missing: true;
  reason: 'unknown';
}
/**
 * A short whose uses are spent: its flag and its expiry fallback (with the fallback's blacklist
 * verdict, valid while `blacklistVersion` matches), so that danger still wins over the fallback.
 */
interface UsedUp {
  missing: true;
  reason: 'used-up';
  dangerous: boolean;
  expiredUrl: string | null;
  expiredBlacklisted: boolean;
  blacklistVersion: number;
}
const MISSING: Missing = Object.freeze({ missing: true as const, reason: 'unknown' as const });
const usedUp = (s: { dangerous: boolean; expiredUrl: string | null }): UsedUp => ({
  missing: true,
  reason: 'used-up',
  dangerous: s.dangerous,
  expiredUrl: s.expiredUrl,
  expiredBlacklisted: false,
  blacklistVersion: -1,
});
type CacheValue = CachedShort | Missing | UsedUp;

/**
 * The results that reached a short carry its id and whether a user or a team owns it (`owned`:
 * the observers skip what only an owned short has, such as its visits for the webhooks).
 */
export type FollowResult =
  /** `target`: `default` (the short's url) or the number of the rule that chose it (from 1). */
  | { kind: 'target'; url: string; shortId: string; owned: boolean; target: TargetName }
  /** An expired or used-up short with an expiry fallback: its expiredUrl instead of not-found. */
  | { kind: 'fallback'; url: string; reason: Exclude<NotFoundReason, 'unknown'> }
  /** A bot following a short with maxUses: a small preview page, never the target (no use claimed). */
  | { kind: 'preview'; name: string | null; shortId: string; owned: boolean }
  /**
   * A link-card crawler following a short with a social preview: its card page (no use claimed).
   * `url`: the target, null for a short with maxUses (no target, no refresh); `meta`: the target's
   * metadata this instance holds already (never fetched here; not for a short with maxUses).
   */
  | {
      kind: 'card';
      preview: SocialPreview;
      name: string | null;
      url: string | null;
      meta?: CachedMetadata;
      shortId: string;
      owned: boolean;
    }
  /**
   * `reason` tells a visitor what a stranger could have seen before: that the short existed with
   * an expiry or a use limit (both are in its public info). Never more.
   */
  | { kind: 'not-found'; reason: NotFoundReason }
  | { kind: 'dangerous' | 'password-required' | 'wrong-password' | 'locked' };

export interface FollowInput {
  /** The own domain the code lives on ('' or absent: this service's host). */
  domain?: string;
  acceptDanger: boolean;
  password?: string;
  client: string;
  /** A crawler, a link preview, an empty user agent or a HEAD: never a use, never a visit. */
  bot?: boolean;
  /** Who followed, for the statistics (read from the request; nothing of it is kept as it is). */
  visitor?: FollowVisitor;
  /** The follow's query parameters (a `query` condition of the redirect rules reads them). */
  query?: URLSearchParams;
}

/** What the statistics take of a follow's request. */
export interface FollowVisitor {
  userAgent: string;
  referer: string | undefined;
  /** The client address (TRUST_PROXY applied). */
  address: string;
  /** A trusted CDN's country header, when configured. */
  country: string | undefined;
  /** `Accept-Language` (a `language` condition of the redirect rules reads it). */
  acceptLanguage?: string;
}

/**
 * Told of every follow that reached a short (a redirect to the target or a bot's preview), with
 * where a redirect went (`default` or the rule's number; a bot's always `default`) and whether a
 * user or a team owns the short.
 */
export type FollowObserver = (
  shortId: string,
  input: FollowInput,
  target: TargetName,
  owned: boolean,
) => void;

/**
 * Who else may carry the buffered use counts: the statistics, which write them in the same batch
 * transaction as the follow's aggregates (one transaction a second for both, not two).
 */
export interface UseCounter {
  /** One use of an unlimited short (buffered; written exactly once). */
  add(shortId: string): void;
  /** Writes what is buffered (uses included); never throws (failures are reported and kept). */
  flush(): Promise<void>;
  /** Distinct shorts whose use counts are not yet written. */
  pending(): number;
}

/** A target's metadata as the metadata feature holds it (title, description, https image). */
export interface CachedMetadata {
  title: string | null;
  description: string | null;
  image: string | null;
}

/** The metadata of a target that is held already (the metadata feature's cache), never fetched. */
export type MetadataPeek = (url: string) => CachedMetadata | undefined;

/** The country of a client address (the statistics' offline database), for `country` rules. */
export type CountryLookup = (address: string) => string | undefined;

/**
 * The redirect engine: decides where a follow goes (docs/follow.md) with as little work as
 * possible. A short is read once and kept in an in-process LRU (30 s; a 2 s "missing" entry for
 * unknown codes), dropped on every instance when it changes (`invalidate`, through the cache bus).
 * Expiry, danger and the blacklist are re-checked on cached entries (the blacklist verdict is
 * cached per blacklist version). A short with `maxUses` claims its use with one conditional UPDATE;
 * uses of other shorts are counted in memory and written about every second, exactly once.
 */
@Injectable()
export class FollowService implements OnModuleInit, OnApplicationShutdown {
  private readonly cache: LRUCache<string, CacheValue> | null;
  private readonly uses = new CountBuffer();
  /** Reads of a short under way, by follow key (only while they run: bounded by the requests). */
  private readonly loading = new Map<string, Promise<CacheValue>>();
  private readonly observers: FollowObserver[] = [];
  private countryLookup: CountryLookup = () => undefined;
  private metadataPeek: MetadataPeek = () => undefined;
  /** Where uses of unlimited shorts are counted: here, or in the statistics' batch (useCounter). */
  private counter: UseCounter | null = null;
  /** Backpressure of the statistics (useBackpressure): a promise while their backlog is full. */
  private room: (() => Promise<void> | undefined) | null = null;
  /** A trusted CDN's country header (GEO_COUNTRY_HEADER, only with TRUST_PROXY), lower case. */
  readonly countryHeader: string | undefined;
  /** DEFAULT_LANGUAGE: the bot preview's language for a request whose Accept-Language names neither. */
  readonly defaultLanguage: Language;
  private flushTimer?: NodeJS.Timeout;

  constructor(
    private readonly shorts: FollowStore,
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly blacklist: BlacklistService,
    private readonly bus: CacheBus,
    private readonly limiter: PasswordLimiter,
    private readonly metrics: MetricsService,
    private readonly failures: FailureReporter,
  ) {
    bus.on(SHORT_CHANGED_CHANNEL, (code) => this.cache?.delete(code));
    this.countryHeader = config.trustProxy === false ? undefined : config.stats.countryHeader;
    this.defaultLanguage = config.web.defaultLanguage;
    // Back from a Redis outage: any entry may have missed its invalidation.
    bus.onResync(() => this.cache?.clear());
    this.cache =
      config.shortCacheSize > 0
        ? new LRUCache({ max: config.shortCacheSize, ttl: CACHE_TTL_MS })
        : null;
  }

  onModuleInit(): void {
    this.flushTimer = setInterval(() => void this.flushUses(), USES_FLUSH_MS);
    this.flushTimer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.flushTimer);
    try {
      await this.uses.drain(this.writeUses);
    } catch (err) {
      this.failures.background(err, 'Writing use counts at shutdown', FollowService.name);
    }
  }

  /**
   * The follow decision chain; counted by outcome; observers hear of redirects and previews. A
   * short in the cache that needs no password check, preview check or use claim is answered
   * without a promise (the hot path: no microtask turn, no promise hook per follow); anything that
   * waits returns a promise.
   */
  follow(code: string, input: FollowInput): FollowResult | Promise<FollowResult> {
    const wait = this.room?.();
    if (wait) return wait.then(() => this.followNow(code, input));
    return this.followNow(code, input);
  }

  private followNow(code: string, input: FollowInput): FollowResult | Promise<FollowResult> {
    const result = this.decide(code, input);
    return result instanceof Promise
      ? result.then((r) => this.observed(r, input))
      : this.observed(result, input);
  }

  private observed(result: FollowResult, input: FollowInput): FollowResult {
    this.metrics.follows.inc(result.kind);
    if ('shortId' in result) {
      const target = result.kind === 'target' ? result.target : 'default';
      for (const o of this.observers) o(result.shortId, input, target, result.owned);
    }
    return result;
  }

  /** Registers an observer of follows (the statistics); it must not block or throw. */
  observe(observer: FollowObserver): void {
    this.observers.push(observer);
  }

  /**
   * Lets follows wait while `room` answers a promise (the statistics, while their backlog of
   * follows not yet written is full: follows then go at the writer's pace instead of growing it).
   */
  useBackpressure(room: () => Promise<void> | undefined): void {
    this.room = room;
  }

  /**
   * Where `country` rules learn a client address's country when no trusted CDN header tells it:
   * the statistics register their offline database, so both see the same country.
   */
  useCountryLookup(lookup: CountryLookup): void {
    this.countryLookup = lookup;
  }

  /**
   * Where a link card's empty parts come from: the metadata feature registers its cache (what it
   * holds already; a follow never fetches).
   */
  useMetadataPeek(peek: MetadataPeek): void {
    this.metadataPeek = peek;
  }

  /**
   * Counts the uses of unlimited shorts in `counter` from now on (the statistics, when enabled, so
   * that a follow's use and its aggregates are one batch). Counts buffered here so far stay here
   * and are written by this service's own flush.
   */
  useCounter(counter: UseCounter): void {
    this.counter = counter;
  }

  /** The country a `country` rule sees: the trusted header, else the lookup (upper case). */
  private countryOf(input: FollowInput): string | undefined {
    const v = input.visitor;
    if (!v) return undefined;
    const raw = (v.country ?? this.countryLookup(v.address))?.trim().toUpperCase();
    return raw && /^[A-Z]{2}$/.test(raw) ? raw : undefined;
  }

  /**
   * An expired or used-up short: its expiry fallback, else the not-found page with the reason.
   * Danger wins over every target: while the short is flagged or the fallback is on the blacklist,
   * a visitor who did not accept the danger gets the warning page, as the short answered while it
   * lived (accepting it leads here: to the fallback or the not-found page, never past the expiry).
   */
  private gone(
    reason: Exclude<NotFoundReason, 'unknown'>,
    s: CachedShort | UsedUp,
    input: FollowInput,
  ): FollowResult {
    if (!input.acceptDanger && (s.dangerous || this.isExpiredUrlBlacklisted(s))) {
      return { kind: 'dangerous' };
    }
    if (!s.expiredUrl) return { kind: 'not-found', reason };
    return { kind: 'fallback', url: s.expiredUrl, reason };
  }

  private decide(code: string, input: FollowInput): FollowResult | Promise<FollowResult> {
    const domain = input.domain ?? '';
    const key = followKey(domain, code);
    const s = this.lookup(key, domain, code);
    return s instanceof Promise
      ? s.then((v) => this.decideFor(key, v, input))
      : this.decideFor(key, s, input);
  }

  /** The decision for a short read (or why there is none), up to and including its password. */
  private decideFor(
    key: string,
    s: CacheValue,
    input: FollowInput,
  ): FollowResult | Promise<FollowResult> {
    const now = Date.now();
    if ('missing' in s) {
      return s.reason === 'used-up'
        ? this.gone('used-up', s, input)
        : { kind: 'not-found', reason: s.reason };
    }
    if (s.expireAt !== null && s.expireAt <= now) return this.gone('expired', s, input);
    if (!input.acceptDanger && (s.dangerous || this.isBlacklisted(s))) return { kind: 'dangerous' };
    if (s.passwordHash !== null) {
      if (input.password === undefined) return { kind: 'password-required' };
      return this.checkPassword(s, s.passwordHash, input.password, input.client, now).then(
        (wrong) => wrong ?? this.decideUse(key, s, input),
      );
    }
    return this.decideUse(key, s, input);
  }

  /** A password's check: null when it is right, else the answer (locked or wrong). */
  private async checkPassword(
    s: CachedShort,
    hash: string,
    password: string,
    client: string,
    now: number,
  ): Promise<FollowResult | null> {
    const outcome = await this.limiter.check(s.id, client, hash, password, now);
    if (outcome === 'locked') return { kind: 'locked' };
    return outcome === 'wrong' ? { kind: 'wrong-password' } : null;
  }

  /** After the password: a bot's answer, the redirect rules, and the use (claimed or counted). */
  private decideUse(
    key: string,
    s: CachedShort,
    input: FollowInput,
  ): FollowResult | Promise<FollowResult> {
    if (input.bot) {
      // A link preview neither burns a limited short nor learns its target; bots never count a use
      // and always get the short's url, never a rule's. A link-card crawler gets the short's social
      // preview (asked only when the short has one: other follows never pay for the check).
      const card = s.preview !== null && isCardAgent(input.visitor?.userAgent ?? '');
      if (s.maxUses === null) {
        if (card && s.preview !== null) {
          const meta = this.metadataPeek(s.url);
          return {
            kind: 'card',
            preview: s.preview,
            name: s.name,
            url: s.url,
            ...(meta ? { meta } : {}),
            shortId: s.id,
            owned: s.owned,
          };
        }
        return { kind: 'target', url: s.url, shortId: s.id, owned: s.owned, target: 'default' };
      }
      // Whether a use is left is read afresh: the cache does not see the claims of other follows
      // (or instances), and an exhausted short is not found for everyone, bots included.
      return this.shorts.hasUseLeft(s.id).then((left): FollowResult => {
        // The bot preview's rule: no target (not even its metadata), no refresh.
        if (left && card && s.preview !== null) {
          return {
            kind: 'card',
            preview: s.preview,
            name: s.name,
            url: null,
            shortId: s.id,
            owned: s.owned,
          };
        }
        if (left) return { kind: 'preview', name: s.name, shortId: s.id, owned: s.owned };
        this.cache?.set(key, usedUp(s), { ttl: MISSING_TTL_MS });
        return this.gone('used-up', s, input);
      });
    }
    // The rules choose the target after password and danger, before a use is claimed.
    const rule = s.rules ? chooseRule(s.rules, this.ruleRequest(input)) : -1;
    if (rule >= 0 && !input.acceptDanger && this.isRuleBlacklisted(s, rule)) {
      return { kind: 'dangerous' };
    }
    const result: FollowResult =
      rule >= 0 && s.rules
        ? {
            kind: 'target',
            url: s.rules[rule].url,
            shortId: s.id,
            owned: s.owned,
            target: `${rule + 1}`,
          }
        : { kind: 'target', url: s.url, shortId: s.id, owned: s.owned, target: 'default' };
    if (s.maxUses !== null) {
      return this.claim(s.id).then((claimed) => {
        if (claimed) return result;
        this.cache?.set(key, usedUp(s), { ttl: MISSING_TTL_MS });
        return this.gone('used-up', s, input);
      });
    }
    if (this.counter) this.counter.add(s.id);
    else this.uses.add(s.id);
    return result;
  }

  /** What the redirect rules read of a follow (the country only when a rule asks). */
  private ruleRequest(input: FollowInput) {
    return {
      userAgent: input.visitor?.userAgent ?? '',
      acceptLanguage: input.visitor?.acceptLanguage,
      query: input.query,
      country: () => this.countryOf(input),
    };
  }

  /** The use claim; a claim whose outcome is unknown is counted (and answered 503 by the caller). */
  private async claim(id: string): Promise<boolean> {
    try {
      return await this.shorts.claimUse(id);
    } catch (err) {
      if (err instanceof ClaimOutcomeUnknownError) this.metrics.claimsUnknown.inc();
      throw err;
    }
  }

  private isBlacklisted(s: CachedShort): boolean {
    this.checkBlacklist(s);
    return s.blacklisted;
  }

  /** Whether the url of rule `index` is blacklisted now (answered as dangerous, as the url is). */
  private isRuleBlacklisted(s: CachedShort, index: number): boolean {
    this.checkBlacklist(s);
    return s.rulesBlacklisted[index] ?? false;
  }

  /** Whether the expiry fallback is blacklisted now (answered as dangerous, as the url is). */
  private isExpiredUrlBlacklisted(s: CachedShort | UsedUp): boolean {
    if ('missing' in s) {
      if (s.blacklistVersion !== this.blacklist.version) {
        s.expiredBlacklisted = s.expiredUrl !== null && this.blacklist.isBlacklisted(s.expiredUrl);
        s.blacklistVersion = this.blacklist.version;
      }
    } else this.checkBlacklist(s);
    return s.expiredBlacklisted;
  }

  private checkBlacklist(s: CachedShort): void {
    if (s.blacklistVersion === this.blacklist.version) return;
    s.blacklisted = this.blacklist.isBlacklisted(s.url);
    s.rulesBlacklisted = (s.rules ?? []).map((r) => this.blacklist.isBlacklisted(r.url));
    s.expiredBlacklisted = s.expiredUrl !== null && this.blacklist.isBlacklisted(s.expiredUrl);
    s.blacklistVersion = this.blacklist.version;
  }

  /**
   * A short by its follow key (`followKey(domain, code)`), from the cache or the database; or why
   * there is none to follow. A read that answers at once (SQLite's) is no promise.
   */
  private lookup(key: string, domain: string, code: string): Promise<CacheValue> | CacheValue {
    const hit = this.cache?.get(key);
    if (hit) return hit;
    // Concurrent misses of one key share one read: a burst of follows of a short not in the cache
    // (just created, just shared) is one SELECT, not one per follow, which would drain the pool.
    let loading = this.loading.get(key);
    if (!loading) {
      const read = this.shorts.findForFollow(domain, code);
      if (!(read instanceof Promise)) return this.load(key, read);
      loading = read.then(
        (row) => {
          this.loading.delete(key);
          return this.load(key, row);
        },
        (err: unknown) => {
          this.loading.delete(key);
          throw err;
        },
      );
      this.loading.set(key, loading);
    }
    return loading;
  }

  /** A short as read (or its absence) into the cache. */
  private load(key: string, row: FollowRow | null): CacheValue {
    if (!row || (row.maxUses !== null && row.uses >= row.maxUses)) {
      const missing = row ? usedUp(row) : MISSING;
      this.cache?.set(key, missing, { ttl: MISSING_TTL_MS });
      return missing;
    }
    const cached: CachedShort = {
      id: row.id,
      name: row.name,
      url: row.url,
      passwordHash: row.passwordHash,
      maxUses: row.maxUses,
      expireAt: row.expireAt ? row.expireAt.getTime() : null,
      dangerous: row.dangerous,
      expiredUrl: row.expiredUrl,
      rules: row.rules,
      preview: row.preview,
      owned: row.ownerId !== null || row.teamId !== null,
      blacklisted: false,
      rulesBlacklisted: [],
      expiredBlacklisted: false,
      blacklistVersion: -1,
    };
    this.cache?.set(key, cached);
    return cached;
  }

  /** Drops a short from the follow cache of every instance (after any change to the short). */
  invalidate(code: string, domain = ''): void {
    this.bus.publish(SHORT_CHANGED_CHANNEL, followKey(domain, code));
  }

  /** Use counts not yet written (distinct shorts; here and in the use counter). */
  pendingUses(): number {
    return this.uses.size + (this.counter?.pending() ?? 0);
  }

  /** Writes the buffered use counts (exactly once: see CountBuffer and applyOnce). */
  async flushUses(): Promise<void> {
    try {
      await this.uses.flush(this.writeUses);
    } catch (err) {
      this.failures.background(err, 'Writing use counts', FollowService.name);
    }
    await this.counter?.flush();
  }

  private readonly writeUses = (batchId: string, counts: ReadonlyMap<string, number>) =>
    this.shorts.writeUses(batchId, counts);
}
