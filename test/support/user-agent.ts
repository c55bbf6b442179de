/**
 * A real browser's user agent. Follows without one (Node's fetch says `node`) are bot hits by the
 * statistics rules (isbot): they never claim a use, and a short with maxUses answers them with a
 * preview page. Tests that stand for people following a link send this.
 */
export const BROWSER_UA =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

/** `init` with the browser user agent unless it names one itself. */
export function asBrowser(init: RequestInit = {}): RequestInit {
  const headers = new Headers(init.headers);
  if (!headers.has('user-agent')) headers.set('user-agent', BROWSER_UA);
  return { ...init, headers };
}
