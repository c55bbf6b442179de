/**
 * Where the user goes back to after login. The page that sends someone to /login (the login
 * guard, the top bar's 'Anmelden' button) remembers its address here; the login page passes it
 * on to the server's login start as `redirect` (the server accepts same-origin paths only).
 */
let returnPath: string | null = null;

/** A same-origin path worth returning to (never /login itself, never another origin). */
export function safeReturnPath(raw: unknown): string | null {
  if (typeof raw !== 'string' || raw.length === 0 || raw.length > 2048) return null;
  if (!raw.startsWith('/') || raw.startsWith('//') || raw.includes('\\')) return null;
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    if (c <= 0x20 || c === 0x7f) return null; // control characters and spaces
  }
  if (raw === '/login' || raw.startsWith('/login?') || raw.startsWith('/login/')) return null;
  return raw;
}

export function rememberLoginReturn(path: string): void {
  returnPath = safeReturnPath(path);
}

export function loginReturn(): string | null {
  return returnPath;
}

/** The provider's login start with the return address: `{url}?redirect={path}`. */
export function providerLoginUrl(url: string, redirect: string | null): string {
  if (!redirect) return url;
  return `${url}${url.includes('?') ? '&' : '?'}redirect=${encodeURIComponent(redirect)}`;
}
