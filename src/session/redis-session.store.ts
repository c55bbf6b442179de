import session from 'express-session';
import type { Redis } from 'ioredis';
import { RedisUnavailableError } from '../redis/redis-unavailable.error';

type Cb<T = void> = (err?: unknown, value?: T) => void;

const PREFIX = 'url-shorter:sess:';
const TOUCH_GRANULARITY_MS = 60_000;

/**
 * express-session store in Redis; Redis expires the keys itself. `redis` answers the connection
 * while it is ready, else null: then every call fails at once with RedisUnavailableError (503),
 * never waiting for a reconnect and never pretending the session does not exist.
 */
export class RedisSessionStore extends session.Store {
  private readonly lastTouch = new Map<string, number>();

  constructor(
    private readonly redis: () => Redis | null,
    private readonly defaultTtlMs: number,
  ) {
    super();
  }

  private ttl(sess: session.SessionData): number {
    const e = sess.cookie?.expires;
    const ms = e ? new Date(e).getTime() - Date.now() : this.defaultTtlMs;
    return Math.max(1, Math.ceil(ms));
  }

  /** Runs a command on the ready connection; any failure becomes RedisUnavailableError. */
  private run<T>(command: (r: Redis) => Promise<T>, cb: Cb<T>): void {
    const r = this.redis();
    if (!r) return cb(new RedisUnavailableError());
    command(r).then(
      (v) => cb(undefined, v),
      (err: unknown) => cb(new RedisUnavailableError(err)),
    );
  }

  override get(sid: string, cb: Cb<session.SessionData | null>): void {
    this.run(
      (r) => r.get(PREFIX + sid),
      (err, v) => {
        if (err) return cb(err);
        cb(null, v ? (JSON.parse(v) as session.SessionData) : null);
      },
    );
  }

  override set(sid: string, sess: session.SessionData, cb?: Cb): void {
    const ttl = this.ttl(sess);
    this.run(
      (r) => r.set(PREFIX + sid, JSON.stringify(sess), 'PX', ttl),
      (err) => {
        if (!err) this.lastTouch.set(sid, Date.now() + ttl);
        cb?.(err);
      },
    );
  }

  override destroy(sid: string, cb?: Cb): void {
    this.lastTouch.delete(sid);
    this.run(
      (r) => r.del(PREFIX + sid),
      (err) => cb?.(err),
    );
  }

  override touch(sid: string, sess: session.SessionData, cb?: Cb): void {
    const ttl = this.ttl(sess);
    const until = Date.now() + ttl;
    const last = this.lastTouch.get(sid);
    if (last !== undefined && until - last < TOUCH_GRANULARITY_MS) {
      cb?.();
      return;
    }
    if (this.lastTouch.size > 10_000) this.lastTouch.clear();
    this.lastTouch.set(sid, until);
    this.run(
      (r) => r.pexpire(PREFIX + sid, ttl),
      (err) => cb?.(err),
    );
  }
}
