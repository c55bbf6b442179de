import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import type { Request } from 'express';
import * as client from 'openid-client';
import { Strategy, type AuthenticateOptions } from 'openid-client/passport';
import { APP_CONFIG, type AppConfig, type OidcProviderConfig } from '../../config/config';
import type { LoginProfile } from '../user.service';
import { callbackUrl, loginStrategies } from './login-strategy';

/** openid-client's passport strategy, always sending a single-use `state` in addition to PKCE. */
class StatefulStrategy extends Strategy {
  override authorizationRequestParams<TOptions extends AuthenticateOptions>(
    req: Request,
    options: TOptions,
  ): URLSearchParams | Record<string, string> | undefined {
    const params = new URLSearchParams(
      super.authorizationRequestParams(req, options) as URLSearchParams,
    );
    params.set('state', client.randomState());
    return params;
  }
}

type Tokens = client.TokenEndpointResponse & client.TokenEndpointResponseHelpers;

const str = (v: unknown) => (typeof v === 'string' && v ? v : undefined);

/**
 * The generic OpenID Connect login (openid-client's passport strategy: authorization code with
 * PKCE S256 and `state`, kept in the session under `oidc`). openid-client builds it from the
 * issuer's discovered metadata, so it is created at the first login by OidcDiscovery, not at boot.
 */
export class OidcStrategy extends PassportStrategy(StatefulStrategy, 'oidc') {
  constructor(
    private readonly configuration: client.Configuration,
    cfg: OidcProviderConfig,
    callbackURL: string,
  ) {
    super({
      config: configuration,
      scope: cfg.scope,
      callbackURL,
      name: 'oidc',
      sessionKey: 'oidc',
    });
  }

  /** The ID token's claims, completed from the userinfo endpoint when username or e-mail is missing. */
  async validate(tokens: Tokens): Promise<LoginProfile> {
    const claims = tokens.claims();
    if (!claims?.sub) throw new Error('ID token without subject');
    let info: Record<string, unknown> = { ...claims };
    if (!info.preferred_username || !info.email) {
      try {
        info = {
          ...(await client.fetchUserInfo(this.configuration, tokens.access_token, claims.sub)),
          ...info,
        };
      } catch {
        // userinfo is optional; the ID token's claims suffice
      }
    }
    const email = str(info.email);
    return {
      provider: 'oidc',
      providerUserId: claims.sub,
      username:
        str(info.preferred_username) ?? str(info.nickname) ?? email?.split('@')[0] ?? claims.sub,
      email: email ?? null,
      imageUrl: str(info.picture) ?? null,
    };
  }
}

/**
 * Discovers the OIDC issuer at the first login and then creates the OidcStrategy (which registers
 * itself with passport). An issuer that is down at boot does not stop the app; its logins answer
 * `/login?error=provider_unavailable`, and the next login tries the discovery again.
 * An http issuer is accepted only because the operator configured it that way (e.g. tests on loopback).
 */
@Injectable()
export class OidcDiscovery implements OnApplicationShutdown {
  private readonly logger = new Logger('Login');
  private strategy?: Promise<OidcStrategy>;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {
    const oidc = config.auth.oidc;
    if (oidc && config.production && oidc.issuer.startsWith('http:')) {
      this.logger.warn(
        `AUTH_OIDC_ISSUER ${oidc.issuer} is plain http: tokens travel unencrypted. Use https.`,
      );
    }
  }

  /** Whether the 'oidc' strategy is registered (discovering the issuer first when it is not yet). */
  async ready(): Promise<boolean> {
    try {
      await this.discovered();
      return true;
    } catch (err) {
      this.logger.warn(
        `OIDC issuer ${this.config.auth.oidc!.issuer} unavailable: ${err instanceof Error ? err.message : String(err)}`,
      );
      return false;
    }
  }

  private discovered(): Promise<OidcStrategy> {
    if (!this.strategy) {
      const attempt = this.discover();
      this.strategy = attempt;
      attempt.catch(() => {
        if (this.strategy === attempt) this.strategy = undefined;
      });
    }
    return this.strategy;
  }

  private async discover(): Promise<OidcStrategy> {
    const cfg = this.config.auth.oidc!;
    const issuer = new URL(cfg.issuer);
    const configuration = await client.discovery(
      issuer,
      cfg.clientId,
      cfg.clientSecret,
      cfg.clientSecret ? undefined : client.None(),
      issuer.protocol === 'http:' ? { execute: [client.allowInsecureRequests] } : undefined,
    );
    return new OidcStrategy(configuration, cfg, callbackUrl(this.config, 'oidc'));
  }

  async onApplicationShutdown(): Promise<void> {
    const strategy = await this.strategy?.catch(() => undefined);
    if (strategy) loginStrategies.stopped('oidc', strategy);
  }
}
