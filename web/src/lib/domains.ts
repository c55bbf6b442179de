import type { Schemas } from '../api/client';

/**
 * Own domains (CONTRACT "Own domains") without React: which domains the short's form offers, a
 * domain's state, and the remembered last choice (kept like the theme: only with the design
 * consent).
 */

export type Domain = Schemas['DomainDto'];

/** A domain's state as the account section shows it. */
export type DomainState = 'pending' | 'verified' | 'disabled';

export function domainState(d: Pick<Domain, 'verified' | 'enabled'>): DomainState {
  if (!d.enabled) return 'disabled';
  return d.verified ? 'verified' : 'pending';
}

/** The hosts a short may be put on: verified and enabled, in the list's order. */
export function usableHosts(list: readonly Pick<Domain, 'host' | 'verified' | 'enabled'>[]) {
  return list.filter((d) => d.verified && d.enabled).map((d) => d.host);
}

/** localStorage key of the last chosen domain ('' = this service's host). */
export const LAST_DOMAIN_KEY = 'domain';

/** The create form's first choice: the remembered host while it is still usable, else the main host. */
export function initialDomain(usable: readonly string[], stored: string | null): string {
  return stored && usable.includes(stored) ? stored : '';
}

/** The remembered last choice (null: none, or storage is not available). */
export function readLastDomain(): string | null {
  try {
    return localStorage.getItem(LAST_DOMAIN_KEY);
  } catch {
    return null;
  }
}

/**
 * Remembers a choice when the visitor allowed the design cookie (the theme's rule); without it a
 * stored choice is removed.
 */
export function rememberDomain(host: string, allowed: boolean): void {
  try {
    if (allowed) localStorage.setItem(LAST_DOMAIN_KEY, host);
    else localStorage.removeItem(LAST_DOMAIN_KEY);
  } catch {
    // no storage: nothing is remembered
  }
}
