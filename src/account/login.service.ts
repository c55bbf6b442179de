import { Inject, Injectable, Logger } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { Passport, type Strategy } from 'passport';
import { BadRequestError } from '../common/errors';
import { APP_CONFIG, type AppConfig } from '../config/config';
import { RedisUnavailableError } from '../redis/redis-unavailable.error';
import '../session/session-data';
import { discordStrategy, githubStrategy } from './providers/oauth-providers';
import { oidcStrategy } from './providers/oidc-provider';
import { safeRedirectPath } from './safe-redirect';
import { type LoginProfile, UserService } from './user.service';

export type ProviderId = 'github' | 'discord' | 'oidc' | 'dev';

function promisify(fn: (cb: (err?: unknown) => void) => void): Promise<void> {
  return new Promise((resolve, reject) => fn((err) => (err ? reject(err) : resolve())));
}

/**
 * Login flows keep their state in the browser's session. A call authenticated by an API key gets
 * none (the pipeline loads no session for bearer calls): refused, never a TypeError.
 */
function requireSession(req: Request): void {
  if (!req.session)
    throw new BadRequestError('A login needs a browser session (no Authorization header)');
}

/** Login providers (passport strategies with state/PKCE in the session) and the shared login completion. */
@Injectable()
export class LoginService {
  private readonly logger = new Logger('Login');
  private readonly passport = new Passport();
  private readonly enabled = new Set<ProviderId>();
  private oidcReady?: Promise<void>;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly users: UserService,
  ) {
    const a = config.auth;
    if (a.github) {
      this.passport.use(
        'github',
        githubStrategy(a.github, this.callbackUrl('github')) as unknown as Strategy,
      );
      this.enabled.add('github');
    }
    if (a.discord) {
      this.passport.use(
        'discord',
        discordStrategy(a.discord, this.callbackUrl('discord')) as unknown as Strategy,
      );
      this.enabled.add('discord');
    }
    if (a.oidc) {
      this.enabled.add('oidc');
      if (config.production && a.oidc.issuer.startsWith('http:')) {
        this.logger.warn(
          `AUTH_OIDC_ISSUER ${a.oidc.issuer} is plain http: tokens travel unencrypted. Use https.`,
        );
      }
    }
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

  callbackUrl(provider: ProviderId): string {
    return `${this.config.baseUrl}/api/auth/${provider}/callback`;
  }

  isEnabled(provider: string): provider is ProviderId {
    return this.enabled.has(provider as ProviderId);
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

  /** Discovery happens at the first OIDC login (a provider that is down at boot does not stop the app). */
  private ensureOidc(): Promise<void> {
    if (!this.oidcReady) {
      this.oidcReady = oidcStrategy(this.config.auth.oidc!, this.callbackUrl('oidc')).then(
        (s) => {
          this.passport.use('oidc', s as unknown as Strategy);
        },
        (err: unknown) => {
          this.oidcReady = undefined;
          throw err;
        },
      );
    }
    return this.oidcReady;
  }

  /** Starts a provider login: remembers a same-origin `redirect`, then sends the browser to the provider. */
  async start(
    provider: Exclude<ProviderId, 'dev'>,
    req: Request,
    res: Response,
    next: NextFunction,
  ): Promise<void> {
    requireSession(req);
    if (provider === 'oidc' && !(await this.oidcAvailable()))
      return this.fail(res, provider, null, 'provider_unavailable');
    const redirect = safeRedirectPath((req.query as Record<string, unknown>).redirect);
    if (redirect) req.session.loginRedirect = redirect;
    else delete req.session.loginRedirect;
    this.passport.authenticate(provider, { session: false })(req, res, next);
  }

  /** The provider's callback: verifies state (single use) and code, then logs the user in. */
  async callback(
    provider: Exclude<ProviderId, 'dev'>,
    req: Request,
    res: Response,
    next: NextFunction,
  ): Promise<void> {
    const q = req.query as Record<string, unknown>;
    if (typeof q.code !== 'string' && typeof q.error !== 'string')
      return this.fail(res, provider, 'no code');
    if (!req.session) return this.fail(res, provider, 'no session');
    if (provider === 'oidc' && !(await this.oidcAvailable()))
      return this.fail(res, provider, null, 'provider_unavailable');
    const profile = await new Promise<LoginProfile | null>((resolve) => {
      this.passport.authenticate(
        provider,
        { session: false },
        (err: unknown, user: LoginProfile | false | undefined, info: unknown) => {
          if (err || !user) {
            const why = err instanceof Error ? err.message : JSON.stringify(info ?? null);
            this.logger.warn(`${provider} login failed: ${why}`);
            return resolve(null);
          }
          resolve(user);
        },
      )(req, res, next);
    });
    if (!profile) return this.fail(res, provider, null);
    await this.complete(req, res, profile);
  }

  private async oidcAvailable(): Promise<boolean> {
    try {
      await this.ensureOidc();
      return true;
    } catch (err) {
      this.logger.warn(
        `OIDC issuer ${this.config.auth.oidc!.issuer} unavailable: ${err instanceof Error ? err.message : String(err)}`,
      );
      return false;
    }
  }

  private fail(res: Response, provider: string, why: string | null, error = 'login_failed'): void {
    if (why) this.logger.warn(`${provider} login failed: ${why}`);
    res.setHeader('Cache-Control', 'no-store');
    res.redirect(302, `/login?error=${error}`);
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
    res.setHeader('Cache-Control', 'no-store');
    res.redirect(302, redirect);
  }

  /** Ends the session (server side) and clears the cookie. */
  async logout(req: Request): Promise<void> {
    if (req.session) await promisify((cb) => req.session.destroy(cb));
  }
}
