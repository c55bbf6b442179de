import { api, unwrap } from '../api/client';
import { usableHosts } from '../lib/domains';
import { useResolved } from './useResolved';

const NONE: readonly string[] = [];

/**
 * The hosts the logged-in caller may put a short on (GET /api/domains: verified and enabled), for
 * the start page's create form. It calls `api` directly: the start page does not load react-query
 * (the budget); pages with react-query use the cached list (api/queries/domains.ts
 * useUsableDomains). Not logged in, or the list cannot be loaded: none (no domain field).
 */
export function useStartPageDomains(loggedIn: boolean): readonly string[] {
  const hosts = useResolved(
    () => (loggedIn ? unwrap(api.GET('/api/domains')).then(usableHosts) : undefined),
    [loggedIn],
    NONE,
  );
  return loggedIn ? hosts : NONE;
}
