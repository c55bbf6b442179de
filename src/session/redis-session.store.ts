import session from 'express-session';
import type { Redis } from 'ioredis';

type Cb<T = void> = (err?: unknown, value?: T) => void;

const PREFIX = 'url-shorter:sess:';
const TOUCH_GRANULARITY_MS = 60_000;

/** express-session store in Redis; Redis expires the keys itself. */
export class RedisSessionStore extends session.Store {
  private readonly lastTouch = new Map<string, number>();

  constructor(
    private readonly redis: Redis,
    private readonly defaultTtlMs: number,
  ) {
    super();
  }

  private ttl(sess: session.SessionData): number {
    const e = sess.cookie?.expires;
    const ms = e ? new Date(e).getTime() - Date.now() : this.defaultTtlMs;
    return Math.max(1, Math.ceil(ms));
  }

  override get(sid: string, cb: Cb<session.SessionData | null>): void {
    this.redis
      .get(PREFIX + sid)
      .then((v) => cb(null, v ? (JSON.parse(v) as session.SessionData) : null))
      .catch((err: unknown) => cb(err));
  }

  override set(sid: string, sess: session.SessionData, cb?: Cb): void {
    const ttl = this.ttl(sess);
    this.redis
      .set(PREFIX + sid, JSON.stringify(sess), 'PX', ttl)
      .then(() => {
        this.lastTouch.set(sid, Date.now() + ttl);
        cb?.();
      })
      .catch((err: unknown) => cb?.(err));
  }

  override destroy(sid: string, cb?: Cb): void {
    this.lastTouch.delete(sid);
    this.redis
      .del(PREFIX + sid)
      .then(() => cb?.())
      .catch((err: unknown) => cb?.(err));
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
    this.redis
      .pexpire(PREFIX + sid, ttl)
      .then(() => cb?.())
      .catch((err: unknown) => cb?.(err));
  }
}
