import * as client from 'openid-client';
import { Strategy, type AuthenticateOptions, type VerifyFunction } from 'openid-client/passport';
import type { Request } from 'express';
import type { OidcProviderConfig } from '../../config/config';
import type { LoginProfile } from '../user.service';

/** openid-client's passport strategy, always sending a single-use `state` in addition to PKCE. */
class StatefulOidcStrategy extends Strategy {
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

/**
 * Discovers the issuer and builds the strategy (PKCE S256, state, nonce-free code flow).
 * An http issuer is accepted only because the operator configured it that way (e.g. tests on loopback).
 */
export async function oidcStrategy(
  cfg: OidcProviderConfig,
  callbackURL: string,
): Promise<Strategy> {
  const issuer = new URL(cfg.issuer);
  const insecure = issuer.protocol === 'http:';
  const config = await client.discovery(
    issuer,
    cfg.clientId,
    cfg.clientSecret,
    cfg.clientSecret ? undefined : client.None(),
    insecure ? { execute: [client.allowInsecureRequests] } : undefined,
  );
  const verify: VerifyFunction = (tokens, done) => {
    void (async () => {
      const claims = tokens.claims();
      if (!claims?.sub) return done(new Error('ID token without subject'));
      let info: Record<string, unknown> = { ...claims };
      if (!info.preferred_username || !info.email) {
        try {
          info = {
            ...(await client.fetchUserInfo(config, tokens.access_token, claims.sub)),
            ...info,
          };
        } catch {
          // userinfo is optional; the ID token's claims suffice
        }
      }
      const str = (v: unknown) => (typeof v === 'string' && v ? v : undefined);
      const email = str(info.email);
      const profile: LoginProfile = {
        provider: 'oidc',
        providerUserId: claims.sub,
        username:
          str(info.preferred_username) ?? str(info.nickname) ?? email?.split('@')[0] ?? claims.sub,
        email: email ?? null,
        imageUrl: str(info.picture) ?? null,
      };
      done(null, profile as never);
    })().catch((err: unknown) => done(err));
  };
  return new StatefulOidcStrategy(
    { config, scope: cfg.scope, callbackURL, name: 'oidc', sessionKey: 'oidc' },
    verify,
  );
}
