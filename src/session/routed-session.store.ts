import session from 'express-session';
import type { DbSessionStore } from './db-session.store';
import type { RedisSessionStore } from './redis-session.store';

type Cb<T = void> = (err?: unknown, value?: T) => void;

/** Session ids made while Redis was away start with this; their sessions live in the database. */
export const FALLBACK_SID_PREFIX = 'db.';

/**
 * Sessions in Redis, with the database as the fallback for sessions created while Redis is away:
 * the session id says where a session lives (FALLBACK_SID_PREFIX: the database; else Redis), so
 * logins keep working during a Redis outage and those sessions stay valid afterwards, on every
 * instance. A session that lives in Redis cannot be read while Redis is away: 503, not "logged out".
 */
export class RoutedSessionStore extends session.Store {
  constructor(
    private readonly redis: RedisSessionStore,
    private readonly db: DbSessionStore,
  ) {
    super();
  }

  private of(sid: string): session.Store {
    return sid.startsWith(FALLBACK_SID_PREFIX) ? this.db : this.redis;
  }

  override get(sid: string, cb: Cb<session.SessionData | null>): void {
    this.of(sid).get(sid, cb);
  }

  override set(sid: string, sess: session.SessionData, cb?: Cb): void {
    this.of(sid).set(sid, sess, cb);
  }

  override destroy(sid: string, cb?: Cb): void {
    this.of(sid).destroy(sid, cb);
  }

  override touch(sid: string, sess: session.SessionData, cb?: Cb): void {
    const store = this.of(sid);
    if (store.touch) store.touch(sid, sess, cb);
    else cb?.();
  }
}
