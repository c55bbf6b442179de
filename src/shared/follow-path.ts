import { isReservedCode } from './limits';
import { asksForDetails, LOOKUP_QUERY } from './lookup-query';

/**
 * Which requests are follows of a short: `GET`/`HEAD` of `/s/{code}` and of `/api/code/{code}`
 * (the latter unless `redirect=false`, which asks for the short's JSON instead), and of `/{code}`
 * (matchRootFollow). The one matcher
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
  if (prefix === 'api/code' && asksForDetails(query.get(LOOKUP_QUERY.redirect.name))) return null;
  // Words that can never be codes are API routes under /api/code (e.g. /api/code/export).
  if (prefix === 'api/code' && isReservedCode(m[2])) return null;
  return { prefix, rawCode: m[2], query };
}

/**
 * `/{code}`: one segment that can be a code (A–Z, a–z, 0–9, `_`, `-`, at most 64), an optional
 * trailing slash and query. A file (`favicon.svg`: a dot), a folder (`/assets/…`) or `/` never
 * matches; a reserved word (every first segment of a client route, client-routes.ts) is refused
 * by a set lookup. One regular expression and that lookup: no read for the client's pages and files.
 */
const ROOT_FOLLOW = /^\/([A-Za-z0-9_-]{1,64})\/?(?:\?(.*))?$/;
const OWN_DOMAIN_HOME = /^\/(?:\?.*)?$/;

/**
 * `GET`/`HEAD /{code}`: a follow without `/s/`, on the main host as on an own domain (CONTRACT
 * "Following a short"). A segment that cannot be a code or is a reserved word (`login`, `shorts`,
 * `assets`, …) is left to the app, which serves its pages there.
 */
export function matchRootFollow(
  method: string | undefined,
  url: string | undefined,
): FollowMatch | null {
  if (method !== 'GET' && method !== 'HEAD') return null;
  const m = ROOT_FOLLOW.exec(url ?? '');
  if (!m || isReservedCode(m[1])) return null;
  return { prefix: 's', rawCode: m[1], query: new URLSearchParams(m[2] ?? '') };
}

/**
 * The main host's follows: `/s/{code}`, `/api/code/{code}` (matchFollow) and `/{code}`
 * (matchRootFollow); `/shortUrl` stays `/s/{code}`.
 */
export function matchMainHost(
  method: string | undefined,
  url: string | undefined,
): FollowMatch | null {
  return matchFollow(method, url) ?? matchRootFollow(method, url);
}

/**
 * On an own domain, besides the main host's follows: `GET /` (its home redirect). `/{code}` (no
 * `/s/`: short is the point) follows as on the main host.
 */
export function matchOwnDomain(
  method: string | undefined,
  url: string | undefined,
): FollowMatch | 'home' | null {
  const follow = matchFollow(method, url);
  if (follow || (method !== 'GET' && method !== 'HEAD')) return follow;
  if (OWN_DOMAIN_HOME.test(url ?? '')) return 'home';
  return matchRootFollow(method, url);
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

/** Whether a request is a follow on the main host (see matchMainHost). */
export function isFollowRequest(method: string | undefined, url: string | undefined): boolean {
  return matchMainHost(method, url) !== null;
}

/** `/s/{code}` with an optional query: the follows the Vite dev server forwards to the server. */
export const FOLLOW_PAGE = /^\/s\/[^/?#]+\/?(?:\?.*)?$/;

/** `/{code}` as the Vite dev server sees it (reserved words are checked by the server). */
export const ROOT_FOLLOW_PAGE = ROOT_FOLLOW;
