import { useEffect, useState } from 'react';
import { api, unwrap } from '../api/client';
import { usableHosts } from '../lib/domains';

/**
 * The hosts the logged-in caller may put a short on (GET /api/domains: verified and enabled),
 * for the short's form. It calls `api` directly: the start page does not load react-query (the
 * budget). Not logged in, or the list cannot be loaded: none (the form shows no domain field).
 */
const NONE: readonly string[] = [];

export function useUsableDomains(loggedIn: boolean): readonly string[] {
  const [hosts, setHosts] = useState<readonly string[]>([]);
  useEffect(() => {
    if (!loggedIn) return;
    let live = true;
    unwrap(api.GET('/api/domains')).then(
      (list) => {
        if (live) setHosts(usableHosts(list));
      },
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [loggedIn]);
  return loggedIn ? hosts : NONE;
}
