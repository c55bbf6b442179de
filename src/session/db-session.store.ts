import session from 'express-session';
import { LessThan, type Repository } from 'typeorm';
import { SessionEntity } from './session.entity';

type Cb<T = void> = (err?: unknown, value?: T) => void;

/** Skips expiry refreshes that would move the expiry by less than this. */
const TOUCH_GRANULARITY_MS = 60_000;

/**
 * express-session store over the `sessions` table. Expired rows are never returned
 * and are removed by `prune()` (called on a timer by SessionService).
 */
export class DbSessionStore extends session.Store {
  private readonly lastTouch = new Map<string, number>();

  constructor(
    private readonly repo: Repository<SessionEntity>,
    private readonly defaultTtlMs: number,
  ) {
    super();
  }

  private expiry(sess: session.SessionData): Date {
    const e = sess.cookie?.expires;
    return e ? new Date(e) : new Date(Date.now() + this.defaultTtlMs);
  }

  override get(sid: string, cb: Cb<session.SessionData | null>): void {
    this.repo
      .findOne({ where: { sid } })
      .then((row) => {
        if (!row || row.expiresAt.getTime() <= Date.now()) return cb(null, null);
        cb(null, JSON.parse(row.data) as session.SessionData);
      })
      .catch((err: unknown) => cb(err));
  }

  override set(sid: string, sess: session.SessionData, cb?: Cb): void {
    const expiresAt = this.expiry(sess);
    this.repo
      .upsert({ sid, data: JSON.stringify(sess), expiresAt }, ['sid'])
      .then(() => {
        this.lastTouch.set(sid, expiresAt.getTime());
        cb?.();
      })
      .catch((err: unknown) => cb?.(err));
  }

  override destroy(sid: string, cb?: Cb): void {
    this.lastTouch.delete(sid);
    this.repo
      .delete({ sid })
      .then(() => cb?.())
      .catch((err: unknown) => cb?.(err));
  }

  override touch(sid: string, sess: session.SessionData, cb?: Cb): void {
    const expiresAt = this.expiry(sess);
    const last = this.lastTouch.get(sid);
    if (last !== undefined && expiresAt.getTime() - last < TOUCH_GRANULARITY_MS) {
      cb?.();
      return;
    }
    if (this.lastTouch.size > 10_000) this.lastTouch.clear();
    this.lastTouch.set(sid, expiresAt.getTime());
    this.repo
      .update({ sid }, { expiresAt })
      .then(() => cb?.())
      .catch((err: unknown) => cb?.(err));
  }

  /** Deletes expired sessions; returns how many. */
  async prune(): Promise<number> {
    const res = await this.repo.delete({ expiresAt: LessThan(new Date()) });
    return res.affected ?? 0;
  }
}
