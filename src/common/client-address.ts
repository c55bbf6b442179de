import type { IncomingMessage } from 'node:http';
import proxyaddr from 'proxy-addr';

/** TRUST_PROXY: no proxy, a hop count, or trusted proxy addresses/CIDRs (`loopback`, `10.0.0.0/8`, …). */
export type TrustProxySetting = false | number | string[];

/** Whether the address at position `i` (0 = the socket, then X-Forwarded-For right to left) is a trusted proxy. */
export type TrustFn = (address: string, i: number) => boolean;

/** The trust function for a setting; Express gets the same one (`trust proxy`), so both agree. */
export function compileTrust(setting: TrustProxySetting): TrustFn {
  if (setting === false) return () => false;
  if (typeof setting === 'number') return (_address, i) => i < setting;
  return proxyaddr.compile(setting);
}

/**
 * The client address of a request: walking from the socket's peer leftwards through
 * X-Forwarded-For, the first address that is not a trusted proxy. Entries left of it are
 * whatever the client chose to send and are never used. The one place that computes it, for the
 * follow fast path and for Express (`req.ip` is computed by the same library with the same
 * trust function).
 */
export function clientAddress(req: IncomingMessage, trust: TrustFn): string {
  // Without X-Forwarded-For the socket's peer is the only address (what proxyaddr answers then).
  if (req.headers['x-forwarded-for'] === undefined) return req.socket.remoteAddress || 'unknown';
  return proxyaddr(req, trust) || 'unknown';
}

/**
 * Whether the socket's peer is a trusted proxy (TRUST_PROXY): only then are the headers a proxy
 * sets believed (X-Forwarded-For, X-Forwarded-Proto, GEO_COUNTRY_HEADER). Any other peer could
 * send them itself.
 */
export function fromTrustedProxy(req: IncomingMessage, trust: TrustFn): boolean {
  const peer = req.socket.remoteAddress;
  return peer !== undefined && trust(peer, 0);
}
