import { proxy } from 'valtio';
import { api, NetworkError, unwrap, type User } from '../api/client';
import { clearTeams } from './space';

export type AuthStatus = 'loading' | 'authenticated' | 'unauthenticated';

/**
 * The session: who is logged in. It stays here (not in a query) because the whole app reads it
 * from the first paint on — the top bar, the route guards, the start page's create form — and the
 * start page must not load react-query; it changes only at login (a full page load) and logout.
 */
export const auth = proxy({
  status: 'loading' as AuthStatus,
  user: null as User | null,
});

/** Admins have the ROLE_ADMIN authority. Takes the plain user or a (read-only) snapshot of it. */
export function isAdmin(user: { readonly authorities: readonly string[] } | null): boolean {
  return Boolean(user?.authorities.includes('ROLE_ADMIN'));
}

function unauthenticated(): void {
  auth.status = 'unauthenticated';
  auth.user = null;
}

/**
 * Who is logged in: GET /api/logged-in first (always 200), so an anonymous page view asks nothing
 * that answers 401 (no error in the console); then GET /api/account for a session. A successful
 * account → authenticated; not logged in or any failure → unauthenticated (no answer: rethrown).
 */
export async function fetchAccount(): Promise<void> {
  try {
    const { loggedIn } = await unwrap(api.GET('/api/logged-in'));
    if (!loggedIn) return unauthenticated();
    auth.user = await unwrap(api.GET('/api/account'));
    auth.status = 'authenticated';
  } catch (err) {
    unauthenticated();
    if (err instanceof NetworkError) throw err;
  }
}

/** Ends the session; cached server data of the user goes with it (when queries were ever loaded). */
export async function logout(): Promise<void> {
  try {
    await api.POST('/api/logout');
  } catch {
    // Ended locally either way; the server forgets the session when it expires.
  } finally {
    unauthenticated();
    clearTeams();
    void import('../api/query').then(({ queryClient }) => queryClient.clear());
  }
}
