/**
 * Logged-in calls in e2e tests, through the development login.
 *
 * The app under test must enable it:
 *
 *   const t = await createTestApp({ AUTH_DEV_LOGIN: 'true', ADMIN_USERS: 'dev:admin' });
 *   const admin = await loginAs(t, 'admin');         // ROLE_ADMIN through ADMIN_USERS
 *   const alice = await loginAs(t, 'alice');         // ROLE_USER only
 *
 *   await t.fetch('/api/account', { headers: alice.headers });                    // GET
 *   await t.fetch('/api/code', { method: 'POST', headers: alice.headers,         // state change:
 *     body: JSON.stringify({ url: 'https://example.com' }) });                     // same-origin + JSON
 *   await alice.post('/api/code', { url: 'https://example.com' });                // the same, shorter
 *
 * In a describe block, `useTestApp` and `useLogin` do the same in beforeAll (and close in afterAll):
 *
 *   const t = useTestApp({ AUTH_DEV_LOGIN: 'true', ADMIN_USERS: 'dev:admin' });
 *   const admin = useLogin(t, 'admin');
 *
 * `headers` carries the session cookie plus `origin` (the app's own origin) and
 * `content-type: application/json`, which cookie-authenticated POST/PUT/PATCH/DELETE need (CSRF rule);
 * the headers are harmless on GET. For a bodiless state change (DELETE, PUT /api/self/apikey, logout) drop
 * the content type or use the `delete`/`put` helpers, which do (a content type without a body is refused). `cookie` is the bare `name=value` pair for tests that build their own
 * headers (e.g. cross-site requests that must be refused).
 */
import type { TestApp } from './app';
import { useBeforeAll } from './hooks';

export const SESSION_COOKIE_NAME = 'url_shorter_session';

export interface LoggedIn {
  /** `url_shorter_session=…` */
  cookie: string;
  /** cookie + same-origin `origin` + JSON content type. */
  headers: Record<string, string>;
  /** The user id (from GET /api/account). */
  userId: string;
  fetch(path: string, init?: RequestInit): Promise<Response>;
  post(path: string, body: unknown): Promise<Response>;
  put(path: string, body?: unknown): Promise<Response>;
  patch(path: string, body: unknown): Promise<Response>;
  delete(path: string): Promise<Response>;
  /** The same user's calls sent from another page's `origin` (e.g. a cross-site request). */
  from(origin: string): LoggedIn;
}

/** The `name=value` of the session cookie in a response's Set-Cookie headers, or null. */
export function sessionCookieFrom(res: Response): string | null {
  for (const c of res.headers.getSetCookie()) {
    const pair = c.split(';')[0];
    if (pair.startsWith(`${SESSION_COOKIE_NAME}=`) && pair.length > SESSION_COOKIE_NAME.length + 1)
      return pair;
  }
  return null;
}

/** Headers a same-origin JSON state change from a browser would carry. */
export function sameOriginHeaders(t: TestApp, cookie: string): Record<string, string> {
  return { cookie, origin: t.url, 'content-type': 'application/json' };
}

/** Wraps a session cookie into the LoggedIn helpers (calls from `origin`, by default the app's). */
export function asLoggedIn(t: TestApp, cookie: string, userId = '', origin = t.url): LoggedIn {
  const headers = { ...sameOriginHeaders(t, cookie), origin };
  const call = (path: string, init: RequestInit = {}) => {
    const h: Record<string, string> = {
      ...headers,
      ...((init.headers as Record<string, string>) ?? {}),
    };
    if (init.body === undefined || init.body === null) delete h['content-type']; // bodiless: no content type
    return t.fetch(path, { ...init, headers: h });
  };
  return {
    cookie,
    headers,
    userId,
    fetch: call,
    post: (path, body) => call(path, { method: 'POST', body: JSON.stringify(body) }),
    put: (path, body) =>
      call(path, { method: 'PUT', body: body === undefined ? undefined : JSON.stringify(body) }),
    patch: (path, body) => call(path, { method: 'PATCH', body: JSON.stringify(body) }),
    delete: (path) => call(path, { method: 'DELETE' }),
    from: (other) => asLoggedIn(t, cookie, userId, other),
  };
}

/** Logs in as the local user `dev:{username}` (needs AUTH_DEV_LOGIN=true on the app). */
export async function loginAs(t: TestApp, username: string): Promise<LoggedIn> {
  const res = await t.fetch(`/api/auth/dev?username=${encodeURIComponent(username)}`);
  if (res.status !== 302) {
    throw new Error(
      `dev login as ${username} failed: ${res.status} ${await res.text()} (is AUTH_DEV_LOGIN=true set?)`,
    );
  }
  const cookie = sessionCookieFrom(res);
  if (!cookie) throw new Error('dev login answered without a session cookie');
  const account = await t.fetch('/api/account', { headers: { cookie } });
  if (account.status !== 200) throw new Error(`GET /api/account after login: ${account.status}`);
  const { id } = (await account.json()) as { id: string };
  return asLoggedIn(t, cookie, id);
}

/**
 * A user of a describe block, logged in (dev login) in `beforeAll` after the app `t` is up:
 * `const alice = useLogin(t, 'alice');`
 */
export function useLogin(t: TestApp, username: string): LoggedIn {
  return useBeforeAll(`the login of ${username}`, () => loginAs(t, username));
}
