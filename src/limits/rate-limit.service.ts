import { Inject, Injectable } from '@nestjs/common';
import ipaddr from 'ipaddr.js';
import type { Redis } from 'ioredis';
import { BoundedMap } from '../common/bounded-map';
import { RateLimitedError } from '../common/errors';
import { APP_CONFIG, type AppConfig } from '../config/config';
import { FailureReporter } from '../failure/failure-reporter';
import { MetricsService } from '../metrics/metrics.service';
import { RedisConnection } from '../redis/redis.connection';
import { gcra, GCRA_LUA } from './gcra';
import type { LimitRule } from '../config/limit-rule';

/** The limits of CONTRACT "Limits": what is counted, per client address or per user. */
export type LimitName =
  'anonCreate' | 'userCreate' | 'qrRender' | 'healthCheck' | 'domainVerify' | 'teamCreate' | 'bulk';

/** The limits counted per user id; the others per client address. */
const PER_USER: ReadonlySet<LimitName> = new Set<LimitName>([
  'userCreate',
  'healthCheck',
  'domainVerify',
  'bulk',
]);

/** A Redis that does not answer within this is treated as away (the instance's own counts apply). */
const REDIS_TIMEOUT_MS = 500;
/** Clients (or users) remembered per limit in process; the least recently seen are forgotten first. */
const LOCAL_KEYS = 100_000;

const PREFIX = 'url-shorter:rl:';

/**
 * The key a client address is limited by: an IPv4 address as it is, an IPv6 address by its /64
 * (one subscriber usually holds a whole /64, so single IPv6 addresses would be free to rotate).
 * IPv4-mapped IPv6 addresses count as the IPv4 address.
 */
export function clientLimitKey(address: string): string {
  if (!ipaddr.isValid(address)) return address;
  let ip = ipaddr.parse(address);
  if (ip.kind() === 'ipv6' && (ip as ipaddr.IPv6).isIPv4MappedAddress()) {
    ip = (ip as ipaddr.IPv6).toIPv4Address();
  }
  if (ip.kind() === 'ipv4') return ip.toString();
  const parts = (ip as ipaddr.IPv6).parts.slice(0, 4).map((p) => p.toString(16));
  return `${parts.join(':')}::/64`;
}

type RateLimitCommand = (key: string, ...args: Array<string | number>) => Promise<[number, number]>;

/**
 * Rate limits per client address or user (LIMIT_ANON_CREATE, LIMIT_USER_CREATE, LIMIT_QR_RENDER,
 * LIMIT_HEALTH_CHECK, LIMIT_DOMAIN_VERIFY):
 * in Redis when it is connected, so every instance counts against one allowance; in process
 * otherwise, and while Redis is away or silent (each instance then limits on its own counts:
 * never a 500, never a hang; the outage is logged once per interval by the Redis outage log).
 */
@Injectable()
export class RateLimitService {
  private readonly rules: Record<LimitName, readonly LimitRule[]>;
  private readonly local = new Map<LimitName, BoundedMap<string, number[]>>();
  private readonly scripted = new WeakSet<Redis>();

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly redis: RedisConnection,
    private readonly failures: FailureReporter,
    private readonly metrics: MetricsService,
  ) {
    this.rules = config.limits;
  }

  /** Whether a limit is on (any rule). */
  enabled(name: LimitName): boolean {
    return this.rules[name].length > 0;
  }

  /**
   * Takes `n` from the allowance of `key` (a client address or a user id) under the limit `name`;
   * all or nothing. Throws RateLimitedError (429, Retry-After) when a rule would be passed.
   */
  async take(name: LimitName, key: string, n = 1): Promise<void> {
    const rules = this.rules[name];
    if (rules.length === 0 || n <= 0) return;
    const id = PER_USER.has(name) ? key : clientLimitKey(key);
    const retryAfterMs =
      (await this.shared(name, id, rules, n)) ?? this.inProcess(name, id, rules, n);
    if (retryAfterMs > 0) {
      this.metrics.rateLimited.inc({ limit: name });
      throw new RateLimitedError(Math.max(1, Math.ceil(retryAfterMs / 1000)));
    }
  }

  /** The decision in Redis: ms to wait (0: allowed), or undefined when Redis is away or silent. */
  private async shared(
    name: LimitName,
    id: string,
    rules: readonly LimitRule[],
    n: number,
  ): Promise<number | undefined> {
    const r = this.redis.ready;
    if (!r) return undefined;
    const args = [n, ...rules.flatMap((rule) => [rule.count, rule.windowMs])];
    let timer: NodeJS.Timeout | undefined;
    try {
      const answer = await Promise.race([
        this.command(r)(`${PREFIX}${name}:${id}`, ...args),
        new Promise<never>((_, reject) => {
          // Timers run before the loop reads sockets: after a stall of the loop, an answer that
          // did arrive is read first (setImmediate runs after the poll phase), not taken as silence.
          timer = setTimeout(
            () => setImmediate(() => reject(new Error('Redis did not answer'))),
            REDIS_TIMEOUT_MS,
          );
        }),
      ]);
      return answer[0] === 1 ? 0 : Number(answer[1]);
    } catch (err) {
      this.failures.redis.failure(err, (err as { code?: string }).code ?? 'RATE_LIMIT');
      return undefined;
    } finally {
      clearTimeout(timer);
    }
  }

  private command(r: Redis): RateLimitCommand {
    if (!this.scripted.has(r)) {
      r.defineCommand('urlShorterRateLimit', { numberOfKeys: 1, lua: GCRA_LUA });
      this.scripted.add(r);
    }
    return (r as unknown as { urlShorterRateLimit: RateLimitCommand }).urlShorterRateLimit.bind(r);
  }

  private inProcess(name: LimitName, id: string, rules: readonly LimitRule[], n: number): number {
    let cache = this.local.get(name);
    if (!cache) {
      const longest = Math.max(...rules.map((r) => r.windowMs));
      cache = new BoundedMap<string, number[]>(LOCAL_KEYS, longest);
      this.local.set(name, cache);
    }
    const decision = gcra(rules, cache.get(id) ?? [], Date.now(), n);
    if (decision.allowed) cache.set(id, decision.tats);
    return decision.retryAfterMs;
  }
}
