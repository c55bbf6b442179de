import { isReservedCode } from '../shared/limits';

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

/** Whether a request is a follow (see matchFollow). */
export function isFollowRequest(method: string | undefined, url: string | undefined): boolean {
  return matchFollow(method, url) !== null;
}

/** `/s/{code}` with an optional query: the follows the Vite dev server forwards to the server. */
export const FOLLOW_PAGE = /^\/s\/[^/?#]+\/?(?:\?.*)?$/;
