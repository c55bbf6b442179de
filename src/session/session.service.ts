import { Inject, Injectable, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Request, RequestHandler } from 'express';
import session from 'express-session';
import { randomBytes } from 'node:crypto';
import { type LeasedJob, LeasedJobs } from '../database/leased-jobs';
import { isFollowRequest } from '../shared/follow-path';
import { RedisConnection } from '../redis/redis.connection';
import type { Repository } from 'typeorm';
import { APP_CONFIG, appSecretOf, type AppConfig } from '../config/config';
import { DbSessionStore } from './db-session.store';
import { RedisSessionStore } from './redis-session.store';
import { FALLBACK_SID_PREFIX, RoutedSessionStore } from './routed-session.store';
import { hasSessionCookie, SESSION_COOKIE } from '../common/session-cookie';
import { SessionEntity } from './session.entity';
import './session-data';

/** One prune per interval across all instances (the lease is held for the interval, see LeasedJob). */
const PRUNE_JOB: LeasedJob = {
  name: 'prune-sessions',
  everyMs: 10 * 60_000,
  what: 'Pruning sessions',
  logger: 'Sessions',
};

/** The routes that may start a session for a request without one (login start, callback, dev login). */
const LOGIN_PATH = /^\/api\/auth(\/|$)/;

/** A new session id: 192 bits of randomness (as express-session's own). */
const newSid = () => randomBytes(24).toString('base64url');

/**
 * Server-side sessions: a database store by default, Redis when REDIS_URL is set. With Redis, a
 * session created while Redis is away goes to the database (its id says so, see
 * RoutedSessionStore), so logins keep working through a Redis outage.
 * The cookie is HttpOnly, SameSite=Lax, Secure when BASE_URL is https, signed with APP_SECRET;
 * its lifetime is the idle timeout and every answer renews it (rolling).
 */
@Injectable()
export class SessionService implements OnModuleInit, OnApplicationShutdown {
  readonly store: session.Store;
  private readonly dbStore: DbSessionStore;
  private pruneTimer?: NodeJS.Timeout;
  private handler?: RequestHandler;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @InjectRepository(SessionEntity) repo: Repository<SessionEntity>,
    private readonly redis: RedisConnection,
    private readonly jobs: LeasedJobs,
  ) {
    const ttl = config.auth.sessionIdleSeconds * 1000;
    this.dbStore = new DbSessionStore(repo, ttl);
    this.store = redis.client
      ? new RoutedSessionStore(new RedisSessionStore(() => redis.ready, ttl), this.dbStore)
      : this.dbStore;
  }

  get kind(): 'redis' | 'database' {
    return this.redis.client ? 'redis' : 'database';
  }

  onModuleInit(): void {
    // Also with Redis: sessions made during a Redis outage live in the database.
    this.pruneTimer = setInterval(() => void this.scheduledPrune(), PRUNE_JOB.everyMs);
    this.pruneTimer.unref();
  }

  /**
   * The timer's run: one instance per interval (a lease held for the interval, as the cleanup job),
   * failures to the background handling. Returns whether this instance ran it.
   */
  scheduledPrune(): Promise<boolean> {
    return this.jobs.scheduled(PRUNE_JOB, () => this.dbStore.prune());
  }

  onApplicationShutdown(): void {
    clearInterval(this.pruneTimer);
  }

  /** Deletes expired sessions from the database store (Redis expires its keys itself). */
  prune(): Promise<number> {
    return this.dbStore.prune();
  }

  /** The express-session middleware (created once). */
  middleware(): RequestHandler {
    if (this.handler) return this.handler;
    const secure = this.config.baseUrl.startsWith('https:');
    this.handler = session({
      name: SESSION_COOKIE,
      secret: appSecretOf(this.config),
      store: this.store,
      resave: false,
      saveUninitialized: false,
      // With Redis: an id that sends the session to the database while Redis is away.
      genid: this.redis.client
        ? () => (this.redis.ready ? newSid() : FALLBACK_SID_PREFIX + newSid())
        : newSid,
      rolling: true,
      unset: 'destroy',
      // Behind a TLS-terminating proxy the socket is plain http; the Secure cookie must still be sent.
      proxy: secure ? true : undefined,
      cookie: {
        httpOnly: true,
        sameSite: 'lax',
        secure,
        path: '/',
        maxAge: this.config.auth.sessionIdleSeconds * 1000,
      },
    });
    return this.handler;
  }

  /**
   * Session for API and management paths only; never on a follow (see follow-path.ts). A request
   * without the session cookie has no session to load, and (saveUninitialized: false) gets none
   * unless a login starts one: only the login routes (`/api/auth/…`) get a fresh session then.
   * Elsewhere express-session's work for it (a new id, a Session and a Cookie object, the hash
   * and the hook on the answer) would be thrown away (anonymous creates: about a tenth of their CPU).
   */
  static wants(req: Request): boolean {
    if (!/^\/(api|management)(\/|$)/.test(req.path)) return false;
    if (!hasSessionCookie(req.headers.cookie) && !LOGIN_PATH.test(req.path)) {
      return false;
    }
    return !isFollowRequest(req.method, req.originalUrl);
  }
}
