/** The session cookie's name (express-session's `name`, see session/session.service.ts). */
export const SESSION_COOKIE = 'url_shorter_session';

const SESSION_COOKIE_RE = new RegExp(`(?:^|;)\\s*${SESSION_COOKIE}=`);

/**
 * Whether a `Cookie` header carries the session cookie: what the session layer, the CSRF checks
 * and the anonymous fast entries ask before anything reads a session.
 */
export function hasSessionCookie(cookie: string | undefined): boolean {
  return SESSION_COOKIE_RE.test(cookie ?? '');
}
