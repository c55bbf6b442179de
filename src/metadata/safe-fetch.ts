import { lookup as dnsLookup } from 'node:dns/promises';
import * as http from 'node:http';
import * as https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { TextDecoder } from 'node:util';
import type { AddressPolicy } from './address-policy';

/** Resolves a host name to every A/AAAA record. */
export type Resolver = (hostname: string) => Promise<{ address: string; family: number }[]>;

export const METADATA_RESOLVER = Symbol('METADATA_RESOLVER');
export const METADATA_FETCH_LIMITS = Symbol('METADATA_FETCH_LIMITS');

export const systemResolver: Resolver = (hostname) =>
  dnsLookup(hostname, { all: true, verbatim: true });

export interface FetchLimits {
  /** Whole fetch, DNS and redirects included. */
  timeoutMs: number;
  /** Bytes of body read at most; the socket is destroyed beyond. */
  maxBytes: number;
  /** Redirect hops followed at most. */
  maxRedirects: number;
  userAgent: string;
}

export const DEFAULT_FETCH_LIMITS: Omit<FetchLimits, 'userAgent'> = {
  timeoutMs: 5_000,
  maxBytes: 512 * 1024,
  maxRedirects: 3,
};

export type FetchFailure =
  | 'bad_url'
  | 'port_refused'
  | 'address_refused'
  | 'dns_failed'
  | 'too_many_redirects'
  | 'bad_status'
  | 'not_html'
  | 'unsupported_encoding'
  | 'timeout'
  | 'network';

export class SafeFetchError extends Error {
  constructor(
    readonly reason: FetchFailure,
    message: string = reason,
  ) {
    super(message);
    this.name = 'SafeFetchError';
  }
}

export interface FetchedPage {
  /** The URL of the last hop (after redirects). */
  url: string;
  body: Buffer;
  /** Charset from the Content-Type header, if any. */
  charset: string | null;
  /** True when the body was cut off at maxBytes. */
  truncated: boolean;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** Never called for IP hosts; refuses any other resolution attempt, so no unchecked address is dialled. */
const refuseLookup: LookupFunction = (hostname, _options, callback) => {
  callback(new SafeFetchError('address_refused', 'unchecked lookup refused'), '', 4);
};

/**
 * Fetches an HTML page without letting the server be used against internal addresses:
 * every hop's host is resolved here, EVERY resulting address is checked by the policy,
 * and the socket connects to a checked address (Host header and TLS SNI carry the name).
 * One deadline covers DNS, connects, redirects and body; the body is read up to maxBytes.
 */
export async function safeFetchHtml(
  target: string,
  policy: AddressPolicy,
  resolver: Resolver,
  limits: FetchLimits,
): Promise<FetchedPage> {
  return withDeadline(limits.timeoutMs, async (signal) => {
    let url = parseHttpUrl(target);
    for (let hop = 0; ; hop++) {
      const res = await requestOnce(url, policy, resolver, limits, signal);
      if ('redirect' in res) {
        if (hop >= limits.maxRedirects) throw new SafeFetchError('too_many_redirects');
        url = parseHttpUrl(res.redirect, url);
        continue;
      }
      return res;
    }
  });
}

/** Runs `work` under one deadline (DNS, connects, redirects and body): then it fails with `timeout`. */
async function withDeadline<T>(ms: number, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const ac = new AbortController();
  const timer = setTimeout(() => ac.abort(new SafeFetchError('timeout')), ms);
  timer.unref?.();
  try {
    return await work(ac.signal);
  } finally {
    clearTimeout(timer);
  }
}

function parseHttpUrl(raw: string, base?: URL): URL {
  let url: URL;
  try {
    url = new URL(raw, base);
  } catch {
    throw new SafeFetchError('bad_url');
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || !url.hostname) {
    throw new SafeFetchError('bad_url');
  }
  return url;
}

function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(e instanceof Error ? e : new Error(String(e)));
      },
    );
  });
}

/** Resolves the hop's host and returns the address to dial, after checking every record. */
async function checkedAddress(
  url: URL,
  port: number,
  policy: AddressPolicy,
  resolver: Resolver,
  signal: AbortSignal,
): Promise<{ address: string; family: number }> {
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  const family = isIP(host);
  let records: { address: string; family: number }[];
  if (family) {
    records = [{ address: host, family }];
  } else {
    try {
      records = await abortable(resolver(host), signal);
    } catch (err) {
      if (err instanceof SafeFetchError) throw err;
      throw new SafeFetchError('dns_failed');
    }
  }
  if (records.length === 0) throw new SafeFetchError('dns_failed');
  for (const r of records) {
    if (!policy.allows(r.address, port)) throw new SafeFetchError('address_refused');
  }
  const first = records[0];
  return {
    address: first.address,
    family: first.family === 6 || isIP(first.address) === 6 ? 6 : 4,
  };
}

/**
 * A request of one hop, to an address checked by the policy (checkedAddress): the socket dials
 * that address, the Host header and TLS SNI carry the name. Returns the request's maker, called
 * once the caller has its handlers ready.
 */
async function checkedRequest(
  url: URL,
  method: 'GET' | 'HEAD' | 'POST',
  accept: string,
  userAgent: string,
  policy: AddressPolicy,
  resolver: Resolver,
  signal: AbortSignal,
  extraHeaders: Record<string, string> = {},
): Promise<() => http.ClientRequest> {
  const secure = url.protocol === 'https:';
  const port = url.port ? Number(url.port) : secure ? 443 : 80;
  const { address, family } = await checkedAddress(url, port, policy, resolver, signal);
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  const options: https.RequestOptions = {
    host: address,
    family,
    port,
    method,
    path: url.pathname + url.search,
    agent: false,
    lookup: refuseLookup,
    signal,
    headers: {
      Host: url.host,
      'User-Agent': userAgent,
      Accept: accept,
      'Accept-Encoding': 'identity',
      ...extraHeaders,
    },
  };
  // SNI and certificate check use the name, never the dialled address.
  if (secure && !isIP(host)) options.servername = host;
  return () => (secure ? https : http).request(options);
}

/**
 * One request's outcome, settled at most once: `fail` destroys the request and rejects (a
 * SafeFetchError as it is, else the abort's reason when aborted, else `network`); `settle` marks an
 * answer and says whether the request was still open.
 */
function settleOnce(req: http.ClientRequest, signal: AbortSignal, reject: (err: Error) => void) {
  let settled = false;
  return {
    get settled(): boolean {
      return settled;
    },
    settle(): boolean {
      if (settled) return false;
      settled = true;
      return true;
    },
    fail(err: unknown): void {
      if (settled) return;
      settled = true;
      req.destroy();
      if (err instanceof SafeFetchError) reject(err);
      else if (signal.aborted) reject(signal.reason as Error);
      else reject(new SafeFetchError('network'));
    },
  };
}

function requestOnce(
  url: URL,
  policy: AddressPolicy,
  resolver: Resolver,
  limits: FetchLimits,
  signal: AbortSignal,
): Promise<FetchedPage | { redirect: string }> {
  const accept = 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.1';
  return checkedRequest(url, 'GET', accept, limits.userAgent, policy, resolver, signal).then(
    (request) =>
      new Promise<FetchedPage | { redirect: string }>((resolve, reject) => {
        if (signal.aborted) return reject(signal.reason as Error);
        const req = request();
        const outcome = settleOnce(req, signal, reject);
        const fail = (err: unknown) => outcome.fail(err);
        req.on('error', fail);
        req.on('response', (res) => {
          res.on('error', fail);
          res.on('aborted', () => fail(new SafeFetchError('network')));
          const status = res.statusCode ?? 0;
          if (REDIRECTS.has(status)) {
            const location = res.headers.location;
            outcome.settle();
            req.destroy();
            if (!location) return reject(new SafeFetchError('bad_status'));
            return resolve({ redirect: location });
          }
          if (status < 200 || status > 299 || status === 204)
            return fail(new SafeFetchError('bad_status'));
          const type = parseContentType(res.headers['content-type']);
          if (type.mime !== 'text/html') return fail(new SafeFetchError('not_html'));
          const encoding = (res.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
          if (encoding !== 'identity' && encoding !== '')
            return fail(new SafeFetchError('unsupported_encoding'));

          const chunks: Buffer[] = [];
          let length = 0;
          const done = (truncated: boolean) => {
            if (!outcome.settle()) return;
            if (truncated) req.destroy(); // stop reading: the socket goes away
            resolve({
              url: url.href,
              body: Buffer.concat(chunks, length),
              charset: type.charset,
              truncated,
            });
          };
          res.on('data', (chunk: Buffer) => {
            if (outcome.settled) return;
            const room = limits.maxBytes - length;
            if (chunk.length >= room) {
              chunks.push(chunk.subarray(0, room));
              length += room;
              return done(true);
            }
            chunks.push(chunk);
            length += chunk.length;
          });
          res.on('end', () => done(false));
        });
        req.end();
      }),
  );
}

export function parseContentType(header: string | undefined): {
  mime: string;
  charset: string | null;
} {
  if (!header) return { mime: '', charset: null };
  const [mime, ...params] = header.split(';');
  let charset: string | null = null;
  for (const p of params) {
    const m = /^\s*charset\s*=\s*"?([^";\s]+)"?\s*$/i.exec(p);
    if (m) charset = m[1].toLowerCase();
  }
  return { mime: mime.trim().toLowerCase(), charset };
}

/** Decodes the body with the header's charset, else a <meta charset> in the first 1024 bytes, else UTF-8. */
export function decodeBody(body: Buffer, charset: string | null): string {
  const label = charset ?? sniffMetaCharset(body) ?? 'utf-8';
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(label);
  } catch {
    decoder = new TextDecoder('utf-8');
  }
  return decoder.decode(body);
}

function sniffMetaCharset(body: Buffer): string | null {
  const head = body.subarray(0, 1024).toString('latin1');
  const m = /<meta[^>]+charset\s*=\s*["']?\s*([A-Za-z0-9._:-]+)/i.exec(head);
  return m ? m[1].toLowerCase() : null;
}

/** What a status probe answered: the status of the last hop (after redirects) and its URL. */
export interface ProbedStatus {
  status: number;
  url: string;
}

/**
 * Asks a target for its status without reading a body, as safely as `safeFetchHtml` (every hop's
 * addresses checked by the policy, one deadline over DNS, connects and redirects): `HEAD`, and
 * `GET` where a hop answers `HEAD` with 405 (the body is not read: the socket is closed once the
 * status is in). Redirects are followed up to `maxRedirects`; more, or a loop, throws
 * `too_many_redirects`. No answer throws a SafeFetchError (`timeout`, `network`, `dns_failed`,
 * `address_refused`, `bad_url`).
 */
export async function safeProbeStatus(
  target: string,
  policy: AddressPolicy,
  resolver: Resolver,
  limits: Pick<FetchLimits, 'timeoutMs' | 'maxRedirects' | 'userAgent'>,
): Promise<ProbedStatus> {
  return withDeadline(limits.timeoutMs, async (signal) => {
    let url = parseHttpUrl(target);
    for (let hop = 0; ; hop++) {
      let res = await probeOnce(url, 'HEAD', policy, resolver, limits.userAgent, signal);
      if (res.status === 405) {
        res = await probeOnce(url, 'GET', policy, resolver, limits.userAgent, signal);
      }
      if (res.location === undefined) return { status: res.status, url: url.href };
      if (hop >= limits.maxRedirects) throw new SafeFetchError('too_many_redirects');
      url = parseHttpUrl(res.location, url);
    }
  });
}

/** One request of a probe: its status, and where a redirect with a Location points. */
function probeOnce(
  url: URL,
  method: 'HEAD' | 'GET',
  policy: AddressPolicy,
  resolver: Resolver,
  userAgent: string,
  signal: AbortSignal,
): Promise<{ status: number; location?: string }> {
  return checkedRequest(url, method, '*/*', userAgent, policy, resolver, signal).then(
    (request) =>
      new Promise<{ status: number; location?: string }>((resolve, reject) => {
        if (signal.aborted) return reject(signal.reason as Error);
        const req = request();
        const outcome = settleOnce(req, signal, reject);
        req.on('error', (err) => outcome.fail(err));
        req.on('response', (res) => {
          outcome.settle();
          const status = res.statusCode ?? 0;
          const location = REDIRECTS.has(status) ? res.headers.location : undefined;
          // Only the status counts: the socket goes away without reading a body.
          res.on('error', () => undefined);
          req.destroy();
          resolve(location ? { status, location } : { status });
        });
        req.end();
      }),
  );
}

/**
 * POSTs `body` to `target` as safely as `safeFetchHtml` (the host's addresses checked by the policy
 * at connect time, the socket dialled to a checked address, one deadline over DNS, connect and
 * answer); redirects are not followed. Answers the status (the answer's body is not read); no
 * answer throws a SafeFetchError (`timeout`, `network`, `dns_failed`, `address_refused`, `bad_url`).
 */
export async function safePost(
  target: string,
  body: string,
  headers: Record<string, string>,
  policy: AddressPolicy,
  resolver: Resolver,
  limits: Pick<FetchLimits, 'timeoutMs' | 'userAgent'>,
): Promise<{ status: number }> {
  return withDeadline(limits.timeoutMs, async (signal) => {
    const url = parseHttpUrl(target);
    const payload = Buffer.from(body, 'utf8');
    const request = await checkedRequest(
      url,
      'POST',
      '*/*',
      limits.userAgent,
      policy,
      resolver,
      signal,
      { ...headers, 'Content-Length': String(payload.length) },
    );
    return new Promise<{ status: number }>((resolve, reject) => {
      if (signal.aborted) return reject(signal.reason as Error);
      const req = request();
      const outcome = settleOnce(req, signal, reject);
      req.on('error', (err) => outcome.fail(err));
      req.on('response', (res) => {
        outcome.settle();
        res.on('error', () => undefined);
        req.destroy();
        resolve({ status: res.statusCode ?? 0 });
      });
      req.end(payload);
    });
  });
}
