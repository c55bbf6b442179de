import passport from 'passport';
import type { AppConfig } from '../../config/config';

/** The providers that log in through a passport strategy (the development login does not). */
export type OAuthProviderId = 'github' | 'discord' | 'oidc';

/** `{BASE_URL}/api/auth/{provider}/callback`: the redirect URI registered at the provider. */
export function callbackUrl(config: AppConfig, provider: OAuthProviderId): string {
  return `${config.baseUrl}/api/auth/${provider}/callback`;
}

/**
 * `PassportStrategy` registers a strategy with passport's process-wide instance when it is
 * created; an app that has shut down (its server closed, no login under way) takes its own
 * strategy out again, so a later app in the same process (the e2e tests) never sees it.
 */
export function unregisterStrategy(name: OAuthProviderId, strategy: object): void {
  const registered = (passport as unknown as { _strategy(name: string): unknown })._strategy(name);
  if (registered === strategy) passport.unuse(name);
}
