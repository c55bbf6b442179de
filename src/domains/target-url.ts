import ipaddr from 'ipaddr.js';
import { normalizeHost } from '../blacklist/host';
import { MAX_URL_LENGTH } from '../shared/limits';

function portOf(u: URL): string {
  return u.port || (u.protocol === 'https:' ? '443' : '80');
}

const IP_CHARS = /^[\d.a-fx:]+$/;

/** localhost, *.localhost, 127.0.0.0/8, ::1, 0.0.0.0 and their IPv4-mapped forms. */
export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (h === 'localhost' || h.endsWith('.localhost')) return true;
  // Only digits, dots, hex letters, `x` and colons can spell an address: a name skips ipaddr's
  // parsers (a fifth of a create's time went into them).
  if (!IP_CHARS.test(h) || !ipaddr.isValid(h)) return false;
  let addr = ipaddr.parse(h);
  if (addr.kind() === 'ipv6' && (addr as ipaddr.IPv6).isIPv4MappedAddress()) {
    addr = (addr as ipaddr.IPv6).toIPv4Address();
  }
  const range = addr.range();
  return range === 'loopback' || range === 'unspecified';
}

/**
 * Whether this instance serves a host now as an own or shared domain (verified and enabled). The
 * host comes lower case, IDN as punycode, without a trailing dot and without a port.
 */
export type ServedDomain = (host: string) => boolean;

/**
 * Every name under which this service answers, so a short cannot point back at it (a redirect
 * loop, a chain through its own domains, or a way to dress up one of its own pages): BASE_URL's
 * host and port; when BASE_URL is a loopback address, every loopback name (localhost, 127.x, ::1,
 * …) on that port and the listening port; the host a request was sent to (`withRequestHost`); and
 * every own or shared domain it serves (`servedDomain`, asked at each check: domains come and go),
 * on any port (a request on any port that reaches this service is answered for its host).
 */
export class ServiceNames {
  private readonly names = new Set<string>();
  private readonly loopbackPorts = new Set<string>();

  constructor(
    baseUrl: string,
    listenPort?: number,
    private readonly servedDomain: ServedDomain = () => false,
  ) {
    const base = new URL(baseUrl);
    this.add(base);
    if (listenPort && isLoopbackHost(base.hostname)) this.loopbackPorts.add(String(listenPort));
  }

  private add(u: URL): void {
    const host = normalizeHost(u.hostname);
    if (!host) return;
    if (isLoopbackHost(host)) this.loopbackPorts.add(portOf(u));
    else this.names.add(`${host}:${portOf(u)}`);
  }

  /** These names plus the request's `Host` (as `host[:port]`, reached over `protocol`). */
  withRequestHost(host: string | undefined, protocol: string): ServiceNames {
    if (!host) return this;
    const copy = Object.create(ServiceNames.prototype) as ServiceNames;
    Object.assign(copy, this, {
      names: new Set(this.names),
      loopbackPorts: new Set(this.loopbackPorts),
    });
    try {
      copy.add(new URL(`${protocol === 'https' ? 'https' : 'http'}://${host}`));
    } catch {
      // not a usable host header: nothing to add
    }
    return copy;
  }

  includes(target: URL): boolean {
    const host = normalizeHost(target.hostname);
    if (!host) return false;
    if (isLoopbackHost(host)) return this.loopbackPorts.has(portOf(target));
    if (this.names.has(`${host}:${portOf(target)}`)) return true;
    // The URL parser lower-cased the host and spelled an IDN in punycode: as domains are stored.
    const name = target.hostname.replace(/\.+$/, '');
    return !name.startsWith('[') && this.servedDomain(name);
  }
}

/** The message of a target on a host this service serves (errorKey `url_self`). */
export const SELF_TARGET = 'must not point to this service';

/**
 * Checks a target URL: absolute http(s), at most 2048 characters, no control characters or
 * whitespace, no user name or password (`https://www.paypal.com@evil.example/` shows one host and
 * goes to another), a real host, not this service under any of its names.
 * Returns the normalised URL (WHATWG serialisation, safe for a Location header) or an error
 * message for the `url` field; `self` when the URL is well formed but points at this service
 * (answered with its own key, `url_self`).
 */
export function parseTargetUrl(
  url: string,
  self: ServiceNames,
): { url: string } | { error: string; self?: true } {
  const checked = checkTargetUrl(url);
  if (typeof checked === 'string') return { error: checked };
  if (self.includes(checked)) return { error: SELF_TARGET, self: true };
  const href = checked.href;
  return href.length > MAX_URL_LENGTH
    ? { error: `must be at most ${MAX_URL_LENGTH} characters long` }
    : { url: href };
}

/** The parsed URL when its form is that of a target, else why not. */
function checkTargetUrl(url: string): URL | string {
  if (url.length > MAX_URL_LENGTH) return `must be at most ${MAX_URL_LENGTH} characters long`;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u0020\u007f-\u009f\u2028\u2029]/.test(url)) {
    return 'must not contain spaces or control characters';
  }
  if (!/^https?:\/\//i.test(url)) return 'must be an absolute http or https URL';
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'must be an absolute http or https URL';
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    return 'must be an absolute http or https URL';
  }
  if (parsed.username || parsed.password) return 'must not contain a user name or password';
  const host = parsed.hostname;
  if (!host || host === '.' || /\.\./.test(host)) return 'must have a valid host';
  if (!host.startsWith('[') && !/^[a-z0-9.-]+$/.test(host)) return 'must have a valid host';
  if (!host.startsWith('[') && host.split('.').some((label) => label.length > 63)) {
    return 'must have a valid host';
  }
  return parsed;
}
