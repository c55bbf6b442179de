import { Inject, Injectable, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { BadRequestError } from '../common/errors';
import { APP_CONFIG, type AppConfig } from '../config/config';
import { RedisUnavailableError } from '../redis/redis-unavailable.error';
import '../session/session-data';
import type { OAuthProviderId } from './providers/login-strategy';
import { safeRedirectPath } from './safe-redirect';
import { type LoginProfile, UserService } from './user.service';
import { noStore } from '../common/no-store';

export type ProviderId = OAuthProviderId | 'dev';

function promisify(fn: (cb: (err?: unknown) => void) => void): Promise<void> {
  return new Promise((resolve, reject) => fn((err) => (err ? reject(err) : resolve())));
}

/**
 * Login flows keep their state in the browser's session. A call authenticated by an API key gets
 * none (the pipeline loads no session for bearer calls): refused, never a TypeError.
 */
export function requireSession(req: Request): void {
  if (!req.session)
    throw new BadRequestError(
      'A login needs a browser session (no Authorization header)',
      'login_needs_session',
    );
}

/**
 * Which login providers are enabled, and the login itself once a provider has named the person
 * (the strategies in providers/ run behind the login guards, login.guard.ts).
 */
@Injectable()
export class LoginService {
  private readonly logger = new Logger('Login');
  private readonly enabled = new Set<ProviderId>();

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly users: UserService,
  ) {
    const a = config.auth;
    if (a.github) this.enabled.add('github');
    if (a.discord) this.enabled.add('discord');
    if (a.oidc) this.enabled.add('oidc');
    if (a.devLogin) {
      this.enabled.add('dev');
      this.logger.warn(
        'AUTH_DEV_LOGIN is on: anyone can log in as any local dev user. Never use it in production.',
      );
    }
  }

  /** Cookies carry Secure when the public origin is https. */
  get secureCookies(): boolean {
    return this.config.baseUrl.startsWith('https:');
  }

  isEnabled(provider: string): provider is ProviderId {
    return this.enabled.has(provider as ProviderId);
  }

  /** Whether `provider` is an enabled provider that logs in through a passport strategy. */
  isOAuthEnabled(provider: string): provider is OAuthProviderId {
    return provider !== 'dev' && this.isEnabled(provider);
  }

  /** `[{name, url}]` for the login page. */
  providers(): { name: string; url: string }[] {
    const list: { name: string; url: string }[] = [];
    if (this.enabled.has('github')) list.push({ name: 'github', url: '/api/auth/github' });
    if (this.enabled.has('discord')) list.push({ name: 'discord', url: '/api/auth/discord' });
    if (this.enabled.has('oidc'))
      list.push({ name: this.config.auth.oidc!.name, url: '/api/auth/oidc' });
    if (this.enabled.has('dev')) list.push({ name: 'dev', url: '/api/auth/dev' });
    return list;
  }

  /** Remembers a same-origin `redirect` (from the login start's query) for after the callback. */
  rememberRedirect(req: Request, redirect: unknown): void {
    const path = safeRedirectPath(redirect);
    if (path) req.session.loginRedirect = path;
    else delete req.session.loginRedirect;
  }

  /** The development login (AUTH_DEV_LOGIN): logs in as `profile` at once, then goes to `redirect`. */
  async dev(req: Request, res: Response, profile: LoginProfile, redirect: string): Promise<void> {
    requireSession(req);
    req.session.loginRedirect = redirect || undefined;
    await this.complete(req, res, profile);
  }

  /** Creates or finds the user, regenerates the session id, stores the login and redirects. */
  async complete(req: Request, res: Response, profile: LoginProfile): Promise<void> {
    requireSession(req);
    const user = await this.users.login(profile);
    const redirect = safeRedirectPath(req.session.loginRedirect) ?? '/';
    const wasLoggedIn = req.session.auth !== undefined;
    try {
      await promisify((cb) => req.session.regenerate(cb));
    } catch (err) {
      // Redis is away and the old session lives there: it cannot be deleted now. express-session
      // has made the new session all the same. A session without a login is harmless (it expires by
      // itself); one with a login must be ended, so that login waits for Redis (503).
      if (!(err instanceof RedisUnavailableError) || wasLoggedIn) throw err;
    }
    req.session.auth = { userId: user.id, loginAt: Date.now() };
    await promisify((cb) => req.session.save(cb));
    this.logger.log(`Login: ${profile.provider}:${user.username} (${user.id})`);
    noStore(res);
    res.redirect(302, redirect);
  }

  /** Ends the session (server side) and clears the cookie. */
  async logout(req: Request): Promise<void> {
    if (req.session) await promisify((cb) => req.session.destroy(cb));
  }
}
