import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Request, Response } from 'express';
import { isbot } from 'isbot';
import { clientAddress, type TrustFn } from '../common/client-address';
import { escapeHtml } from '../common/html';
import { type FailureHandler, sendProblem } from '../common/problem.filter';
import { clientKey, queryParam } from '../common/request';
import type { FollowInput, FollowResult, FollowService } from './follow.service';
import type { DomainRegistry } from '../domains/domain-registry';
import { matchFollow, matchOwnDomain } from './follow-path';
import { noStore } from '../common/no-store';

type Redirect = Exclude<FollowResult, { kind: 'preview' }>;

/**
 * Where an unknown, expired or used-up code goes: an own domain's own not-found redirect as it is,
 * else this service's not-found page (`origin`: BASE_URL for own domains, '' on the main host).
 * The page is told an expiry or a used-up limit (`?reason=expired|used-up`); an unknown code gets
 * no reason, so the location of codes that never existed stays what it always was.
 */
export interface NotFoundTarget {
  redirect?: string | null;
  origin?: string;
}

function location(code: string, result: Redirect, notFound: NotFoundTarget = {}): string {
  const c = encodeURIComponent(code);
  switch (result.kind) {
    case 'target':
      return result.url;
    case 'not-found':
      if (notFound.redirect) return notFound.redirect;
      return `${notFound.origin ?? ''}/s/${c}/not-found${result.reason === 'unknown' ? '' : `?reason=${result.reason}`}`;
    case 'dangerous':
      return `/s/${c}/potentially-dangerous`;
    case 'password-required':
      return `/s/${c}/password-required`;
    case 'wrong-password':
      return `/s/${c}/password-required?wrong=true`;
    case 'locked':
      return `/s/${c}/password-required?locked=true`;
  }
}

/** Baseline headers every answer carries (the same as configureApp sets for Express). */
export const SECURITY_HEADERS: ReadonlyArray<[string, string]> = [
  ['X-Content-Type-Options', 'nosniff'],
  ['X-Frame-Options', 'DENY'],
];

const PRODUCT_TITLE = 'URL-Shorter';

/**
 * A bot's answer for a short with maxUses: a tiny page for link previews (the short's name or the
 * product title), never indexed, without the target URL.
 */
export function previewPage(name: string | null): string {
  const title = escapeHtml(name ?? PRODUCT_TITLE);
  return `<!doctype html><html lang="de"><head><meta charset="utf-8"><meta name="robots" content="noindex, nofollow"><meta property="og:title" content="${title}"><meta property="og:site_name" content="${PRODUCT_TITLE}"><title>${title}</title></head><body><h1>${title}</h1></body></html>`;
}

/** What the follow path takes of the request: bot or not, and the visitor's traits. */
export function visitorInput(
  req: IncomingMessage,
  address: string,
  countryHeader: string | undefined,
): Pick<FollowInput, 'bot' | 'visitor'> {
  const userAgent = req.headers['user-agent'] ?? '';
  const country = countryHeader === undefined ? undefined : req.headers[countryHeader];
  return {
    bot: req.method === 'HEAD' || userAgent === '' || isbot(userAgent),
    visitor: {
      userAgent,
      referer: req.headers.referer,
      address,
      country: typeof country === 'string' ? country : undefined,
    },
  };
}

/**
 * Runs the follow decision and writes the 302 (or a bot's preview page). `notFound`: where an
 * unknown, expired or used-up code goes (own domains: their redirect, or this service's page).
 */
async function answer(
  follow: FollowService,
  code: string,
  input: FollowInput,
  res: ServerResponse,
  notFound?: NotFoundTarget,
): Promise<void> {
  const result = await follow.follow(code, input);
  if (result.kind === 'preview') {
    const body = previewPage(result.name);
    res.statusCode = 200;
    for (const [k, v] of SECURITY_HEADERS) res.setHeader(k, v);
    noStore(res);
    res.setHeader('X-Robots-Tag', 'noindex');
    res.setHeader('Content-Type', 'text/html; charset=utf-8');
    res.setHeader('Content-Length', Buffer.byteLength(body));
    res.end(res.req?.method === 'HEAD' ? undefined : body);
    return;
  }
  res.statusCode = 302;
  for (const [k, v] of SECURITY_HEADERS) res.setHeader(k, v);
  noStore(res);
  res.setHeader(
    'Referrer-Policy',
    result.kind === 'target' ? 'no-referrer' : 'strict-origin-when-cross-origin',
  );
  res.setHeader('Location', location(code, result, notFound));
  res.end();
}

/** A plain 302 of the follow path (an own domain's home). */
function redirect(res: ServerResponse, to: string): void {
  res.statusCode = 302;
  for (const [k, v] of SECURITY_HEADERS) res.setHeader(k, v);
  noStore(res);
  res.setHeader('Location', to);
  res.end();
}

/** Follow through Express (the documented Nest routes, reached when the fast entry is not installed). */
export function followAndRedirect(
  follow: FollowService,
  code: string,
  req: Request,
  res: Response,
): Promise<void> {
  const client = clientKey(req);
  return answer(
    follow,
    code,
    {
      acceptDanger: queryParam(req, 'accept_danger') === 'true',
      password: queryParam(req, 'password'),
      client,
      ...visitorInput(req, client, follow.countryHeader),
    },
    res,
  );
}

export interface FollowEntryDeps {
  follow: FollowService;
  /** Own domains by host: a request to one follows its codes. */
  domains: DomainRegistry;
  /** BASE_URL: an own domain's home and not-found redirects default to this service's pages. */
  baseUrl: string;
  /** The TRUST_PROXY trust function (the same one Express uses). */
  trust: TrustFn;
  failures: FailureHandler;
}

/**
 * The hot path: follows (see follow-path.ts) are answered straight from the HTTP server's request
 * event, before Express and Nest, with exactly the decision of the documented routes (which stay
 * as the fallback and in the OpenAPI spec). It skips on purpose what every other request gets: the
 * request id and its log context, the per-route HTTP metrics (follows are counted by outcome in
 * FollowService instead), the session, body parsing and the access log. Failures get the same
 * handling as everywhere (FailureHandler: problem+json, 503 for an unavailable database, logs and
 * Sentry). Every other request goes to the original listeners untouched.
 */
export function installFollowEntry(server: Server, deps: FollowEntryDeps): void {
  const listeners = server.listeners('request') as Array<
    (req: IncomingMessage, res: ServerResponse) => void
  >;
  server.removeAllListeners('request');
  const fallback = (req: IncomingMessage, res: ServerResponse) => {
    for (const l of listeners) l.call(server, req, res);
  };

  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    // A request to an own domain follows that domain's codes (CONTRACT "Own domains").
    const own = deps.domains.ofRequest(req.headers.host);
    const m = own ? matchOwnDomain(req.method, req.url) : matchFollow(req.method, req.url);
    if (!m) return fallback(req, res);
    if (m === 'home') return redirect(res, own?.homeRedirect ?? `${deps.baseUrl}/`);
    let code: string;
    try {
      code = decodeURIComponent(m.rawCode);
    } catch {
      return fallback(req, res);
    }
    const notFound: NotFoundTarget | undefined = own
      ? { redirect: own.notFoundRedirect, origin: deps.baseUrl }
      : undefined;
    if (own && !own.enabled) {
      return redirect(
        res,
        own.notFoundRedirect ?? `${deps.baseUrl}/s/${encodeURIComponent(code)}/not-found`,
      );
    }
    const client = clientAddress(req, deps.trust);
    const input: FollowInput = {
      domain: own?.host,
      acceptDanger: m.query.get('accept_danger') === 'true',
      password: m.query.get('password') ?? undefined,
      client,
      ...visitorInput(req, client, deps.follow.countryHeader),
    };
    answer(deps.follow, code, input, res, notFound).catch((err: unknown) => {
      if (res.headersSent) return res.destroy();
      const path = `/${m.prefix}/${m.rawCode}`;
      sendProblem(res, deps.failures.request(err, { method: req.method ?? 'GET', path }));
    });
  });
}
