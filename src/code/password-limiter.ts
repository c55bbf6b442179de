import { LRUCache } from 'lru-cache';

interface Attempts {
  failures: number;
  lockedUntil: number;
}

/**
 * Counts wrong password tries per short and client. After `maxTries` failures the pair
 * is locked for `lockMs`, and no hash is computed while locked.
 */
export class PasswordLimiter {
  private readonly attempts: LRUCache<string, Attempts>;

  constructor(
    private readonly maxTries: number,
    private readonly lockMs: number,
  ) {
    this.attempts = new LRUCache({ max: 100_000, ttl: lockMs, ttlAutopurge: false });
  }

  isLocked(shortId: string, client: string, now = Date.now()): boolean {
    const a = this.attempts.get(`${shortId}|${client}`);
    return !!a && a.lockedUntil > now;
  }

  fail(shortId: string, client: string, now = Date.now()): void {
    const key = `${shortId}|${client}`;
    const a = this.attempts.get(key) ?? { failures: 0, lockedUntil: 0 };
    a.failures++;
    if (a.failures >= this.maxTries) {
      a.lockedUntil = now + this.lockMs;
      a.failures = 0;
    }
    this.attempts.set(key, a);
  }

  succeed(shortId: string, client: string): void {
    this.attempts.delete(`${shortId}|${client}`);
  }
}
