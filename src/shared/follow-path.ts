import { isReservedCode } from './limits';

/**
 * Which requests are follows of a short: `GET`/`HEAD` of `/s/{code}` and of `/api/code/{code}`
 * (the latter unless `redirect=false`, which asks for the short's JSON instead). The one matcher
 * for everything that must tell a follow apart: the fast HTTP entry, the session layer (a follow
 * never reads the session), the web client middleware (a follow is never the SPA) and the Vite dev
 * server's proxy. Reserved words (code-generator.ts) are routes, not codes. Pure, so the Vite
 * config can import it.
 */
const FOLLOW = /^\/(s|api\/code)\/([^/?#]+)\/?(?:\?(.*))?$/;

export interface FollowMatch {
  /** `s` or `api/code`. */
  prefix: 's' | 'api/code';
  /** The code as it appears in the path (still percent-encoded). */
  rawCode: string;
  query: URLSearchParams;
}

/** Matches a request's method and URL (path with query) against the follow routes. */
export function matchFollow(
  method: string | undefined,
  url: string | undefined,
): FollowMatch | null {
  if (method !== 'GET' && method !== 'HEAD') return null;
  const m = FOLLOW.exec(url ?? '');
  if (!m) return null;
  const query = new URLSearchParams(m[3] ?? '');
  const prefix = m[1] as FollowMatch['prefix'];
  if (prefix === 'api/code' && query.get('redirect') === 'false') return null;
  // Words that can never be codes are API routes under /api/code (e.g. /api/code/export).
  if (prefix === 'api/code' && isReservedCode(m[2])) return null;
  return { prefix, rawCode: m[2], query };
}

/** A path segment that can be a code (custom codes: 3–64; anything shorter is no code either). */
const CODE_SHAPED = /^[A-Za-z0-9_-]{1,64}$/;
const OWN_DOMAIN_FOLLOW = /^\/(?:s\/)?([^/?#]+)\/?(?:\?(.*))?$/;
const OWN_DOMAIN_HOME = /^\/(?:\?.*)?$/;

/**
 * On an own domain, besides the follow routes: `GET /` (its home redirect) and `GET /{code}` (no
 * `/s/`: short is the point). A segment that cannot be a code (a file with a dot, a reserved word
 * such as `login` or `assets`) is left to the app, which serves its pages there too.
 */
export function matchOwnDomain(
  method: string | undefined,
  url: string | undefined,
): FollowMatch | 'home' | null {
  const follow = matchFollow(method, url);
  if (follow || (method !== 'GET' && method !== 'HEAD')) return follow;
  if (OWN_DOMAIN_HOME.test(url ?? '')) return 'home';
  const m = OWN_DOMAIN_FOLLOW.exec(url ?? '');
  if (!m || !CODE_SHAPED.test(m[1]) || isReservedCode(m[1])) return null;
  return { prefix: 's', rawCode: m[1], query: new URLSearchParams(m[2] ?? '') };
}

const POSTED_FOLLOW = /^\/s\/([^/?#]+)\/?(?:\?(.*))?$/;

/**
 * `POST /s/{code}`: the password page's form, with the password in the body instead of the query
 * (which lands in the browser's history and in proxy logs). The same on an own domain.
 */
export function matchPostedFollow(
  method: string | undefined,
  url: string | undefined,
): FollowMatch | null {
  if (method !== 'POST') return null;
  const m = POSTED_FOLLOW.exec(url ?? '');
  if (!m) return null;
  return { prefix: 's', rawCode: m[1], query: new URLSearchParams(m[2] ?? '') };
}

/** Whether a request is a follow (see matchFollow). */
export function isFollowRequest(method: string | undefined, url: string | undefined): boolean {
  return matchFollow(method, url) !== null;
}

/** `/s/{code}` with an optional query: the follows the Vite dev server forwards to the server. */
export const FOLLOW_PAGE = /^\/s\/[^/?#]+\/?(?:\?.*)?$/;
