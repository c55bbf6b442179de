import passport, { type Strategy } from 'passport';
import type { AppConfig } from '../../config/config';

/** The providers that log in through a passport strategy (the development login does not). */
export type OAuthProviderId = 'github' | 'discord' | 'oidc';

/** `{BASE_URL}/api/auth/{provider}/callback`: the redirect URI registered at the provider. */
export function callbackUrl(config: AppConfig, provider: OAuthProviderId): string {
  return `${config.baseUrl}/api/auth/${provider}/callback`;
}

/** The strategies of the apps running in this process, per name, oldest first. */
const running = new Map<OAuthProviderId, object[]>();

const registered = (name: OAuthProviderId): unknown =>
  (passport as unknown as { _strategy(name: string): unknown })._strategy(name);

/**
 * `PassportStrategy` registers a strategy with passport's process-wide instance when it is created,
 * so with several apps in one process (the e2e tests) the newest app's strategy is the one used.
 * Each strategy reports itself here when created (`started`) and when its app has shut down
 * (`stopped`: its server closed, no login under way): then the strategy of an app still running
 * takes its place, or the name is unregistered, so an app never uses a closed app's strategy.
 */
export const loginStrategies = {
  started(name: OAuthProviderId, strategy: object): void {
    running.set(name, [...(running.get(name) ?? []), strategy]);
  },
  stopped(name: OAuthProviderId, strategy: object): void {
    const rest = (running.get(name) ?? []).filter((s) => s !== strategy);
    running.set(name, rest);
    if (registered(name) !== strategy) return;
    const previous = rest.at(-1);
    if (previous) passport.use(name, previous as Strategy);
    else passport.unuse(name);
  },
};
