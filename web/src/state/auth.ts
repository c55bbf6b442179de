import { proxy } from 'valtio';
import { api, NetworkError, unwrap, type User } from '../api/client';

export type AuthStatus = 'loading' | 'authenticated' | 'unauthenticated';

export const auth = proxy({
  status: 'loading' as AuthStatus,
  user: null as User | null,
  apiKey: null as { id: string } | null,
  loginProvider: [] as { name: string; url: string }[],
});

export function isAdmin(user: User | null): boolean {
  return Boolean(user?.authorities.includes('ROLE_ADMIN'));
}

function unauthenticated(): void {
  auth.status = 'unauthenticated';
  auth.user = null;
  auth.apiKey = null;
}

/** SPEC §4: a successful fetch → authenticated; a failure or status ≥ 400 → unauthenticated. */
export async function fetchAccount(): Promise<void> {
  try {
    auth.user = await unwrap(api.GET('/api/account'));
    auth.status = 'authenticated';
  } catch (err) {
    unauthenticated();
    if (err instanceof NetworkError) throw err;
  }
}

export async function logout(): Promise<void> {
  try {
    await api.POST('/api/logout');
  } finally {
    unauthenticated();
  }
}

export async function fetchLoginProviders(): Promise<{ name: string; url: string }[]> {
  try {
    auth.loginProvider = await unwrap(api.GET('/api/auth-providers'));
  } catch {
    auth.loginProvider = [];
  }
  return auth.loginProvider;
}
