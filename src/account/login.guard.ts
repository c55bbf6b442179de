import {
  type ArgumentsHost,
  type CanActivate,
  Catch,
  type ExceptionFilter,
  type ExecutionContext,
  Injectable,
  Logger,
} from '@nestjs/common';
import { AuthGuard, type IAuthGuard } from '@nestjs/passport';
import type { Request, Response } from 'express';
import { NotFoundError } from '../common/errors';
import { LoginService, requireSession } from './login.service';
import type { OAuthProviderId } from './providers/login-strategy';
import { OidcDiscovery } from './providers/oidc.strategy';
import type { LoginProfile } from './user.service';
import { noStore } from '../common/no-store';

/** A request that passed LoginCallbackGuard: the provider's answer, as the strategy's `validate` made it. */
export type LoginRequest = Request & { loginProfile: LoginProfile };

/** A login that ends on the login page with `/login?error={reason}` (LoginFailureFilter), never a 500. */
export class LoginFailure extends Error {
  constructor(readonly reason: 'login_failed' | 'provider_unavailable') {
    super(reason);
    this.name = 'LoginFailure';
  }
}

@Catch(LoginFailure)
export class LoginFailureFilter implements ExceptionFilter<LoginFailure> {
  catch(failure: LoginFailure, host: ArgumentsHost): void {
    const res = host.switchToHttp().getResponse<Response>();
    noStore(res);
    res.redirect(302, `/login?error=${failure.reason}`);
  }
}

/**
 * `AuthGuard(provider)` as the login routes use it: no passport session (LoginService.complete
 * stores the login in ours), the profile on `req.loginProfile` (so `req.user` stays the caller's
 * Actor), and a refused or failed authentication (bad or replayed `state`, a provider error) is a
 * LoginFailure.
 */
function providerGuard(provider: OAuthProviderId, logger: Logger): IAuthGuard {
  class ProviderGuard extends AuthGuard(provider) {
    override handleRequest<T>(err: unknown, profile: T | false | null, info: unknown): T {
      if (err || !profile) {
        const why = err instanceof Error ? err.message : JSON.stringify(info ?? null);
        logger.warn(`${provider} login failed: ${why}`);
        throw new LoginFailure('login_failed');
      }
      return profile;
    }
  }
  return new ProviderGuard({ session: false, property: 'loginProfile' });
}

/**
 * The login routes are `/api/auth/{provider}` and `/api/auth/{provider}/callback`: these guards
 * answer 404 for a provider that is not enabled, run the route's own checks, then hand the request
 * to the provider's `AuthGuard` (and so to its PassportStrategy in providers/). OIDC's strategy
 * exists only once its issuer has been discovered (OidcDiscovery): until then its logins end with
 * `provider_unavailable`.
 */
@Injectable()
abstract class ProviderLoginGuard implements CanActivate {
  protected readonly logger = new Logger('Login');
  private readonly guards: Record<OAuthProviderId, IAuthGuard>;

  constructor(
    protected readonly login: LoginService,
    private readonly oidc: OidcDiscovery,
  ) {
    this.guards = {
      github: providerGuard('github', this.logger),
      discord: providerGuard('discord', this.logger),
      oidc: providerGuard('oidc', this.logger),
    };
  }

  abstract canActivate(ctx: ExecutionContext): Promise<boolean>;

  /** The request and its enabled provider; 404 for any other. */
  protected target(ctx: ExecutionContext): { req: Request; provider: OAuthProviderId } {
    const req = ctx.switchToHttp().getRequest<Request>();
    const provider = req.params.provider;
    if (typeof provider !== 'string' || !this.login.isOAuthEnabled(provider))
      throw new NotFoundError('Login provider not enabled', 'provider_not_enabled');
    return { req, provider };
  }

  protected async requireDiscovery(provider: OAuthProviderId): Promise<void> {
    if (provider === 'oidc' && !(await this.oidc.ready()))
      throw new LoginFailure('provider_unavailable');
  }

  protected authenticate(ctx: ExecutionContext, provider: OAuthProviderId): Promise<boolean> {
    return this.guards[provider].canActivate(ctx) as Promise<boolean>;
  }

  protected failed(provider: OAuthProviderId, why: string): LoginFailure {
    this.logger.warn(`${provider} login failed: ${why}`);
    return new LoginFailure('login_failed');
  }
}

/**
 * `GET /api/auth/{provider}`: remembers a same-origin `redirect`, then the strategy sends the
 * browser to the provider with a new `state` (and PKCE challenge) kept in the session. The
 * strategy answers the request itself, so the route's handler does not run.
 */
@Injectable()
export class LoginStartGuard extends ProviderLoginGuard {
  async canActivate(ctx: ExecutionContext): Promise<boolean> {
    const { req, provider } = this.target(ctx);
    requireSession(req);
    await this.requireDiscovery(provider);
    this.login.rememberRedirect(req, (req.query as Record<string, unknown>).redirect);
    return this.authenticate(ctx, provider);
  }
}

/**
 * `GET /api/auth/{provider}/callback`: the strategy checks `state` (single use: it is taken out of
 * the session) and exchanges the code; the handler then logs the person in.
 */
@Injectable()
export class LoginCallbackGuard extends ProviderLoginGuard {
  async canActivate(ctx: ExecutionContext): Promise<boolean> {
    const { req, provider } = this.target(ctx);
    const q = req.query as Record<string, unknown>;
    // Without either, the strategy would take the callback for a new login start.
    if (typeof q.code !== 'string' && typeof q.error !== 'string')
      throw this.failed(provider, 'no code');
    if (!req.session) throw this.failed(provider, 'no session');
    await this.requireDiscovery(provider);
    return this.authenticate(ctx, provider);
  }
}
