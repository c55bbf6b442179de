import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { noStore } from '../common/no-store';
import { type FailureHandler, sendProblem } from '../common/problem.filter';
import { putInFront } from '../common/request-entry';
import { SECURITY_HEADERS } from '../common/security-headers';
import type { DomainRegistry, KnownDomain } from '../domains/domain-registry';
import { CUSTOM_CODE_PATTERN } from '../shared/limits';
import type { PageRenderer } from './page-renderer';

/** `/p/{slug}` with an optional trailing slash and query. */
const PAGE_PATH = /^\/p\/([^/?#]+)\/?(?:\?.*)?$/;
/** Longest path segment that can hold a slug (64 characters, each percent-encoded at most). */
const MAX_SEGMENT = 64 * 3;

/**
 * The slug of a `/p/{slug}` path: `undefined` when the path is no page path (Express answers it),
 * `null` when it cannot name a page (longer than 64 characters, or not of the slug syntax, or
 * badly encoded): answered 404 without a database query.
 */
export function pageSlugOf(url: string): string | null | undefined {
  const m = PAGE_PATH.exec(url);
  if (!m) return undefined;
  if (m[1].length > MAX_SEGMENT) return null;
  let slug: string;
  try {
    slug = decodeURIComponent(m[1]);
  } catch {
    return null;
  }
  return CUSTOM_CODE_PATTERN.test(slug) ? slug : null;
}

export interface PageEntryDeps {
  pages: PageRenderer;
  domains: DomainRegistry;
  /** BASE_URL: where an own domain's `/` goes when its home page is gone. */
  baseUrl: string;
  failures: FailureHandler;
}

/**
 * The public link pages, answered in front of Express like follows (no session, no body, no
 * client): `GET`/`HEAD /p/{slug}` on the main host, and `/` of an enabled own domain that names a
 * home page (a page that is gone there: the domain's home redirect, as without one). Every other
 * request goes on untouched after two string checks.
 */
export function installPageEntry(server: Server, deps: PageEntryDeps): void {
  putInFront(server, (req, res, next) => {
    const url = req.url ?? '';
    if (req.method !== 'GET' && req.method !== 'HEAD') return next(req, res);
    const pagePath = url.startsWith('/p/');
    if (!pagePath && url !== '/' && !url.startsWith('/?')) return next(req, res);
    const own = deps.domains.ofRequest(req.headers.host);
    const fail = (err: unknown) => {
      if (res.headersSent) return res.destroy();
      sendProblem(res, deps.failures.request(err, { method: req.method ?? 'GET', path: url }));
    };
    if (own) {
      if (pagePath || !own.homePage || !own.enabled) return next(req, res);
      return void home(deps, own, own.homePage, req, res).catch(fail);
    }
    const slug = pageSlugOf(url);
    if (slug === undefined) return next(req, res);
    if (slug === null) return deps.pages.send(req, res, null);
    deps.pages
      .bySlug(slug)
      .then((page) => deps.pages.send(req, res, page))
      .catch(fail);
  });
}

async function home(
  deps: PageEntryDeps,
  own: KnownDomain,
  pageId: string,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const page = await deps.pages.byId(pageId);
  if (page) return deps.pages.send(req, res, page);
  res.statusCode = 302;
  for (const [k, v] of SECURITY_HEADERS) res.setHeader(k, v);
  noStore(res);
  res.setHeader('Location', own.homeRedirect ?? `${deps.baseUrl}/`);
  res.end();
}
