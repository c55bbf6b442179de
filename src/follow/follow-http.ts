import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { putInFront } from '../common/request-entry';
import type { Request, Response } from 'express';
import { isbot } from 'isbot';
import { keptAnswer } from '../common/kept-answers';
import { clientAddress, fromTrustedProxy, type TrustFn } from '../common/client-address';
import { escapeHtml } from '../common/html';
import { type FailureHandler, sendProblem } from '../common/problem.filter';
import { problem } from '../common/problem';
import { clientKey } from '../common/request';
import type { FollowQueryDto, PostedFollowQueryDto } from './dto/lookup-query.dto';
import { acceptsDanger, LOOKUP_QUERY, textParam } from '../shared/lookup-query';
import type { FollowInput, FollowResult, FollowService } from './follow.service';
import type { DomainRegistry, KnownDomain } from '../domains/domain-registry';
import {
  type FollowMatch,
  matchMainHost,
  matchOwnDomain,
  matchPostedFollow,
} from '../shared/follow-path';
import { NO_STORE, noStore } from '../common/no-store';
import { originOf } from '../common/origin';
import { SECURITY_HEADERS } from '../common/security-headers';
import { hasSessionCookie } from '../common/session-cookie';
import { acceptedLanguage, type Language } from '../shared/language';
import { type Card, cardPage } from './card-page';

type Redirect = Exclude<FollowResult, { kind: 'preview' | 'card' }>;

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

/**
 * Where a follow's redirect goes. A visitor who accepted a dangerous short's warning keeps that
 * (`accept_danger=true`) on the way to and back from the password page, so the password does not
 * lead back to the warning.
 */
function location(
  code: string,
  result: Redirect,
  notFound: NotFoundTarget = {},
  acceptDanger = false,
): string {
  const c = encodeURIComponent(code);
  const danger = acceptDanger ? 'accept_danger=true' : '';
  switch (result.kind) {
    case 'target':
    case 'fallback':
      return result.url;
    case 'not-found':
      if (notFound.redirect) return notFound.redirect;
      return `${notFound.origin ?? ''}/s/${c}/not-found${result.reason === 'unknown' ? '' : `?reason=${result.reason}`}`;
    case 'dangerous':
      return `/s/${c}/potentially-dangerous`;
    case 'password-required':
      return `/s/${c}/password-required${danger ? `?${danger}` : ''}`;
    case 'wrong-password':
      return `/s/${c}/password-required?wrong=true${danger ? `&${danger}` : ''}`;
    case 'locked':
      return `/s/${c}/password-required?locked=true${danger ? `&${danger}` : ''}`;
  }
}

/** Where an own domain's unknown, expired and used-up codes go (undefined: the main host's pages). */
function ownNotFound(own: KnownDomain | undefined, baseUrl: string): NotFoundTarget | undefined {
  return own ? { redirect: own.notFoundRedirect, origin: baseUrl } : undefined;
}

/** Every code of a disabled own domain: its not-found redirect, else this service's page. */
function disabledLocation(own: KnownDomain, baseUrl: string, code: string): string {
  return own.notFoundRedirect ?? `${baseUrl}/s/${encodeURIComponent(code)}/not-found`;
}

const PRODUCT_TITLE = 'URL-Shorter';

/**
 * A bot's answer for a short with maxUses: a tiny page for link previews (the short's name or the
 * product title), never indexed, without the target URL; in the request's language (CONTRACT
 * "Language": Accept-Language, else DEFAULT_LANGUAGE).
 */
export function previewPage(name: string | null, lang: Language = 'de'): string {
  const title = escapeHtml(name ?? PRODUCT_TITLE);
  return `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><meta name="robots" content="noindex, nofollow"><meta property="og:title" content="${title}"><meta property="og:site_name" content="${PRODUCT_TITLE}"><title>${title}</title></head><body><h1>${title}</h1></body></html>`;
}

/**
 * A link card from the short's social preview: its empty parts from the target's metadata held
 * already (none for a short with maxUses), the title else the short's name or the product title.
 */
export function cardOf(result: Extract<FollowResult, { kind: 'card' }>): Card {
  const { preview, meta } = result;
  return {
    title: preview.title ?? meta?.title ?? result.name ?? PRODUCT_TITLE,
    description: preview.description ?? meta?.description ?? null,
    image: preview.image ?? meta?.image ?? null,
    url: result.url,
  };
}

/** How many user agents' isbot answers are kept (then they are dropped all at once). */
export const BOT_ANSWERS_MAX = 1_000;
/** Longer user agents are checked each time: the kept answers take at most about 1 MB. */
const BOT_ANSWER_UA_MAX = 512;
const botAnswers = new Map<string, boolean>();

/**
 * isbot's answer for a user agent, kept for the user agents seen lately: its pattern of several
 * hundred alternatives costs about 3 µs a call, and a few browsers' user agents make most follows.
 */
export function isBotAgent(userAgent: string): boolean {
  if (userAgent.length > BOT_ANSWER_UA_MAX) return isbot(userAgent);
  return keptAnswer(botAnswers, BOT_ANSWERS_MAX, userAgent, isbot);
}

/**
 * What the follow path takes of the request: bot or not, and the visitor's traits. The country
 * header (GEO_COUNTRY_HEADER) is read only when the socket's peer is a trusted proxy, exactly as
 * X-Forwarded-For: any other peer could name its own country (a country rule's target, the
 * statistics' country).
 */
export function visitorInput(
  req: IncomingMessage,
  address: string,
  countryHeader: string | undefined,
  trust: TrustFn,
): Pick<FollowInput, 'bot' | 'visitor'> {
  const userAgent = req.headers['user-agent'] ?? '';
  const country =
    countryHeader === undefined || !fromTrustedProxy(req, trust)
      ? undefined
      : req.headers[countryHeader];
  return {
    bot: req.method === 'HEAD' || userAgent === '' || isBotAgent(userAgent),
    visitor: {
      userAgent,
      referer: req.headers.referer,
      address,
      country: typeof country === 'string' ? country : undefined,
      acceptLanguage: req.headers['accept-language'],
    },
  };
}

/**
 * Runs the follow decision and writes the 302 (or a bot's preview page). `notFound`: where an
 * unknown, expired or used-up code goes (own domains: their redirect, or this service's page).
 * For a cached short the decision is synchronous (FollowService.follow), and so is the answer
 * (undefined); else a promise. It may throw.
 */
function answer(
  follow: FollowService,
  code: string,
  input: FollowInput,
  res: ServerResponse,
  notFound?: NotFoundTarget,
  status: 302 | 303 = 302,
): Promise<void> | undefined {
  const lang = follow.defaultLanguage;
  const danger = input.acceptDanger;
  const result = follow.follow(code, input);
  if (result instanceof Promise)
    return result.then((r) => write(r, code, res, notFound, status, lang, danger));
  write(result, code, res, notFound, status, lang, danger);
  return undefined;
}

/** answer() as a promise (the Express routes). */
async function answered(...args: Parameters<typeof answer>): Promise<void> {
  await answer(...args);
}

/** Writes a follow's answer: the redirect, or a bot's preview page. */
function write(
  result: FollowResult,
  code: string,
  res: ServerResponse,
  notFound: NotFoundTarget | undefined,
  status: 302 | 303,
  defaultLanguage: Language,
  acceptDanger: boolean,
): void {
  if (result.kind === 'preview' || result.kind === 'card') {
    const lang = acceptedLanguage(res.req?.headers['accept-language'], defaultLanguage);
    const body =
      result.kind === 'preview' ? previewPage(result.name, lang) : cardPage(cardOf(result), lang);
    res.statusCode = 200;
    res.setHeader('Content-Language', lang);
    res.setHeader('Vary', 'Accept-Language');
    for (const [k, v] of SECURITY_HEADERS) res.setHeader(k, v);
    noStore(res);
    res.setHeader('X-Robots-Tag', 'noindex');
    // A card's refresh and link go to the target: it learns nothing of this page's address.
    if (result.kind === 'card' && result.url !== null)
      res.setHeader('Referrer-Policy', 'no-referrer');
    res.setHeader('Content-Type', 'text/html; charset=utf-8');
    res.setHeader('Content-Length', Buffer.byteLength(body));
    res.end(res.req?.method === 'HEAD' ? undefined : body);
    return;
  }
  // One writeHead with the headers as a flat list: no header map is built and walked again.
  res.writeHead(status, [
    ...REDIRECT_HEADERS,
    'Referrer-Policy',
    result.kind === 'target' || result.kind === 'fallback'
      ? 'no-referrer'
      : 'strict-origin-when-cross-origin',
    'Location',
    location(code, result, notFound, acceptDanger),
    'Content-Length',
    '0',
  ]);
  res.end();
}

/** The headers every follow's redirect carries first (SECURITY_HEADERS and no-store). */
const REDIRECT_HEADERS: readonly string[] = [...SECURITY_HEADERS.flat(), ...NO_STORE];

/** A plain 302 of the follow path (an own domain's home). */
function redirect(res: ServerResponse, to: string): void {
  res.statusCode = 302;
  for (const [k, v] of SECURITY_HEADERS) res.setHeader(k, v);
  noStore(res);
  res.setHeader('Location', to);
  res.end();
}

/** The most a posted follow's body may hold (a password of the longest allowed length, encoded). */
export const POSTED_FOLLOW_BODY_LIMIT = 8 * 1024;

/**
 * Why a posted follow is refused as cross-site, or null. The rule of the CSRF check (docs/api.md):
 * an `Origin` must be this service's (BASE_URL's origin, or the host the request was sent to, as on
 * an own domain); without one, `Sec-Fetch-Site` must say same-origin; with neither, only a request
 * without the session cookie passes (curl, scripts). Applied whether or not a session cookie comes
 * along: a follow never reads the session, but a foreign page must not spend a visitor's tries (the
 * lockout) or a short's uses. Unlike other state changes, a form body is allowed: the password page
 * is a plain form the browser posts (and navigates with), and the cookie authenticates nothing here.
 */
export function postedFollowRefusal(
  headers: IncomingMessage['headers'],
  baseUrl: string,
): string | null {
  const origin = headers.origin;
  if (origin !== undefined && origin !== '') {
    const o = originOf(origin);
    if (o !== null && (o === originOf(baseUrl) || new URL(o).host === headers.host?.toLowerCase()))
      return null;
    return 'Cross-site request refused';
  }
  const site = headers['sec-fetch-site'];
  if (site === 'same-origin') return null;
  if (site === undefined && !hasSessionCookie(headers.cookie)) return null;
  return 'Cross-site request refused';
}

type PostedPassword = { password: string | undefined } | { problem: ReturnType<typeof problem> };

/**
 * The password of a posted follow: a form (`application/x-www-form-urlencoded`, the password
 * page) or JSON (`{"password": "…"}`). Anything else, or a body past the limit, is a problem.
 */
export function postedPassword(
  contentType: string | undefined,
  body: Buffer | null,
  instance: string,
): PostedPassword {
  if (body === null)
    return {
      problem: problem(413, 'Payload Too Large', 'Request body is too large', instance, {
        errorKey: 'body_too_large',
      }),
    };
  const type = (contentType ?? '').split(';')[0].trim().toLowerCase();
  const text = body.toString('utf8');
  if (type === 'application/x-www-form-urlencoded')
    return { password: new URLSearchParams(text).get('password') ?? undefined };
  if (type === 'application/json' || /^application\/[^;]*\+json$/.test(type)) {
    let parsed: unknown;
    try {
      parsed = text.trim() === '' ? {} : JSON.parse(text);
    } catch {
      return {
        problem: problem(400, 'Bad Request', 'Malformed JSON', instance, {
          errorKey: 'json_invalid',
        }),
      };
    }
    const password = (parsed as { password?: unknown } | null)?.password;
    if (password === undefined) return { password: undefined };
    if (typeof password === 'string') return { password };
    // null as well: the schema refuses it, as every body's null where none is allowed (a 400).
    return {
      problem: problem(400, 'Bad Request', 'Validation failed', instance, {
        errorKey: 'validation_failed',
        fieldErrors: { password: 'must be a string' },
      }),
    };
  }
  return {
    problem: problem(
      415,
      'Unsupported Media Type',
      'Request body must be application/x-www-form-urlencoded or application/json',
      instance,
      { errorKey: 'content_type_unsupported' },
    ),
  };
}

/** Reads a request's body up to `limit` bytes; null when it is longer. */
function readBody(req: IncomingMessage, limit: number): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    req.on('data', (c: Buffer) => {
      if (over) return;
      size += c.length;
      if (size > limit) {
        over = true;
        chunks.length = 0;
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => resolve(over ? null : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** The query parameters of a request's URL (path and query). */
function queryOf(url: string): URLSearchParams {
  const at = url.indexOf('?');
  return new URLSearchParams(at < 0 ? '' : url.slice(at + 1));
}

/** The TRUST_PROXY trust function Express was given (configureApp). */
function expressTrust(req: Request): TrustFn {
  return req.app.get('trust proxy fn') as TrustFn;
}

/**
 * Follow through Express (the documented Nest routes, reached when the fast entry is not
 * installed), with the route's query DTO.
 */
export function followAndRedirect(
  follow: FollowService,
  code: string,
  query: FollowQueryDto,
  req: Request,
  res: Response,
): Promise<void> {
  const client = clientKey(req);
  return answered(
    follow,
    code,
    {
      acceptDanger: acceptsDanger(query.accept_danger),
      password: query.password,
      client,
      query: queryOf(req.originalUrl),
      ...visitorInput(req, client, follow.countryHeader, expressTrust(req)),
    },
    res,
  );
}

/**
 * `POST /s/{code}` through Express (the documented Nest route, reached when the fast entry is not
 * installed; Express parses JSON bodies only): the password from the body, 303 to where the follow
 * goes.
 */
export function followPosted(
  follow: FollowService,
  code: string,
  query: PostedFollowQueryDto,
  req: Request,
  res: Response,
  baseUrl: string,
): Promise<void> {
  const refusal = postedFollowRefusal(req.headers, baseUrl);
  if (refusal) {
    sendProblem(
      res,
      problem(403, 'Forbidden', refusal, req.path, { errorKey: 'cross_site_refused' }),
    );
    return Promise.resolve();
  }
  const body = req.body as { password?: unknown } | undefined;
  if (body?.password !== undefined && typeof body.password !== 'string') {
    sendProblem(
      res,
      problem(400, 'Bad Request', 'Validation failed', req.path, {
        errorKey: 'validation_failed',
        fieldErrors: { password: 'must be a string' },
      }),
    );
    return Promise.resolve();
  }
  const client = clientKey(req);
  return answered(
    follow,
    code,
    {
      acceptDanger: acceptsDanger(query.accept_danger),
      password: body?.password as string | undefined,
      client,
      query: queryOf(req.originalUrl),
      ...visitorInput(req, client, follow.countryHeader, expressTrust(req)),
    },
    res,
    undefined,
    303,
  );
}

/** What the fast entry hands the follow: the domain, the query's flags, the password, the visitor. */
function entryInput(
  req: IncomingMessage,
  deps: FollowEntryDeps,
  own: KnownDomain | undefined,
  query: URLSearchParams,
  password: string | undefined,
): FollowInput {
  const client = clientAddress(req, deps.trust);
  return {
    domain: own?.host,
    acceptDanger: acceptsDanger(query.get(LOOKUP_QUERY.acceptDanger.name)),
    password,
    client,
    query,
    ...visitorInput(req, client, deps.follow.countryHeader, deps.trust),
  };
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
  putInFront(server, (req, res, fallback) => {
    // A request to an own domain follows that domain's codes (CONTRACT "Own domains").
    const own = deps.domains.ofRequest(req.headers.host);
    const posted = matchPostedFollow(req.method, req.url);
    if (posted) return postedEntry(deps, own, posted, req, res);
    // The main host follows `/{code}` as `/s/{code}` (reserved words keep the client's pages).
    const m = own ? matchOwnDomain(req.method, req.url) : matchMainHost(req.method, req.url);
    if (!m) return fallback(req, res);
    if (m === 'home') return redirect(res, own?.homeRedirect ?? `${deps.baseUrl}/`);
    let code: string;
    try {
      code = decodeURIComponent(m.rawCode);
    } catch {
      return fallback(req, res);
    }
    const notFound = ownNotFound(own, deps.baseUrl);
    if (own && !own.enabled) return redirect(res, disabledLocation(own, deps.baseUrl, code));
    const fail = (err: unknown) => {
      if (res.headersSent) return res.destroy();
      const path = `/${m.prefix}/${m.rawCode}`;
      sendProblem(res, deps.failures.request(err, { method: req.method ?? 'GET', path }));
    };
    try {
      const password = textParam(m.query.get(LOOKUP_QUERY.password.name));
      const input = entryInput(req, deps, own, m.query, password);
      answer(deps.follow, code, input, res, notFound)?.catch(fail);
    } catch (err) {
      fail(err);
    }
  });
}

/**
 * The fast entry of `POST /s/{code}` (the password page's form): refused cross-site, the password
 * read from the body, then the follow decision of GET with a 303 (the browser then GETs where it
 * goes). Wrong passwords count towards the same lockout.
 */
function postedEntry(
  deps: FollowEntryDeps,
  own: ReturnType<DomainRegistry['ofRequest']>,
  m: FollowMatch,
  req: IncomingMessage,
  res: ServerResponse,
): void {
  const path = `/${m.prefix}/${m.rawCode}`;
  const fail = (err: unknown) => {
    if (res.headersSent) return res.destroy();
    sendProblem(res, deps.failures.request(err, { method: req.method ?? 'POST', path }));
  };
  const refusal = postedFollowRefusal(req.headers, deps.baseUrl);
  if (refusal) {
    req.resume();
    return sendProblem(
      res,
      problem(403, 'Forbidden', refusal, path, { errorKey: 'cross_site_refused' }),
    );
  }
  let code: string;
  try {
    code = decodeURIComponent(m.rawCode);
  } catch {
    req.resume();
    return sendProblem(
      res,
      problem(404, 'Not Found', 'Entity URLShort not exists', path, {
        errorKey: 'entity_not_exists',
      }),
    );
  }
  readBody(req, POSTED_FOLLOW_BODY_LIMIT)
    .then((body) => {
      const posted = postedPassword(req.headers['content-type'], body, path);
      if ('problem' in posted) return sendProblem(res, posted.problem);
      const notFound = ownNotFound(own, deps.baseUrl);
      if (own && !own.enabled) return redirect(res, disabledLocation(own, deps.baseUrl, code));
      const input = entryInput(req, deps, own, m.query, posted.password);
      return answer(deps.follow, code, input, res, notFound, 303);
    })
    .catch(fail);
}
