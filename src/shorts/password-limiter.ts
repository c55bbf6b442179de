import { verify } from '@node-rs/argon2';
import type { Redis } from 'ioredis';
import { BoundedMap } from '../common/bounded-map';

/** A password try's outcome: right (the count cleared), wrong (one failure more), or locked. */
export type PasswordCheck = 'right' | 'wrong' | 'locked';

interface Attempts {
  failures: number;
  lockedUntil: number;
}

/**
 * Counts wrong password tries per short and client. After `maxTries` failures the pair
 * is locked for `lockMs`, and no hash is computed while locked.
 * In process by default; shared by all instances through Redis when one is given (with the
 * in-process counts as the fallback while Redis is unreachable).
 */
export class PasswordLimiter {
  private readonly attempts: BoundedMap<string, Attempts>;

  constructor(
    private readonly maxTries: number,
    private readonly lockMs: number,
    private readonly redis: () => Redis | undefined = () => undefined,
  ) {
    this.attempts = new BoundedMap(100_000, lockMs);
  }

  /**
   * One password try of `client` on a short, the one place that decides it (the follow and the
   * reveal): `locked` while the pair is locked (no hash is computed then); else the password
   * against the short's hash, `right` clearing the count and `wrong` counting one failure more.
   */
  async check(
    shortId: string,
    client: string,
    passwordHash: string,
    password: string,
    now = Date.now(),
  ): Promise<PasswordCheck> {
    if (await this.isLocked(shortId, client, now)) return 'locked';
    if (!(await verify(passwordHash, password))) {
      await this.fail(shortId, client);
      return 'wrong';
    }
    await this.succeed(shortId, client);
    return 'right';
  }

  async isLocked(shortId: string, client: string, now = Date.now()): Promise<boolean> {
    const r = this.shared();
    if (r) {
      try {
        return (await r.exists(this.lockKey(shortId, client))) === 1;
      } catch {
        // fall back to the local counts
      }
    }
    const a = this.attempts.get(`${shortId}|${client}`);
    return !!a && a.lockedUntil > now;
  }

  async fail(shortId: string, client: string, now = Date.now()): Promise<void> {
    const r = this.shared();
    if (r) {
      try {
        const key = this.failKey(shortId, client);
        const [[, count]] = (await r.multi().incr(key).pexpire(key, this.lockMs).exec()) as [
          [Error | null, number],
        ];
        if (count >= this.maxTries) {
          await r
            .multi()
            .set(this.lockKey(shortId, client), '1', 'PX', this.lockMs)
            .del(key)
            .exec();
        }
        return;
      } catch {
        // fall back to the local counts
      }
    }
    const key = `${shortId}|${client}`;
    const a = this.attempts.get(key) ?? { failures: 0, lockedUntil: 0 };
    a.failures++;
    if (a.failures >= this.maxTries) {
      a.lockedUntil = now + this.lockMs;
      a.failures = 0;
    }
    this.attempts.set(key, a);
  }

  async succeed(shortId: string, client: string): Promise<void> {
    this.attempts.delete(`${shortId}|${client}`);
    const r = this.shared();
    if (r) await r.del(this.failKey(shortId, client)).catch(() => undefined);
  }

  private shared(): Redis | undefined {
    const r = this.redis();
    return r && r.status === 'ready' ? r : undefined;
  }

  private failKey(shortId: string, client: string): string {
    return `url-shorter:pw-fail:${shortId}:${client}`;
  }

  private lockKey(shortId: string, client: string): string {
    return `url-shorter:pw-lock:${shortId}:${client}`;
  }
}
