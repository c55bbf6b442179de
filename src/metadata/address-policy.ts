import ipaddr from 'ipaddr.js';

/**
 * Decides which socket addresses the metadata fetcher may connect to.
 * `allows` is asked for EVERY address a host resolves to and for every redirect hop.
 */
export interface AddressPolicy {
  allows(address: string, port: number): boolean;
}

export const METADATA_ADDRESS_POLICY = Symbol('METADATA_ADDRESS_POLICY');

/** Global unicast IPv6 space (2000::/3); everything outside it is reserved or special. */
const IPV6_GLOBAL_UNICAST = ipaddr.parseCIDR('2000::/3') as [ipaddr.IPv6, number];

export type AddressClass = 'public' | 'loopback' | 'refused';

/**
 * Classifies an IP address string. IPv4-mapped IPv6 forms (::ffff:a.b.c.d) are unwrapped
 * by ipaddr.process and judged as the IPv4 address; IPv4-compatible (::a.b.c.d), NAT64,
 * 6to4, Teredo and other special IPv6 ranges are refused outright. Only ranges ipaddr.js
 * calls `unicast` are public: loopback, private (RFC 1918), link-local, CGNAT, multicast,
 * unique-local, unspecified, broadcast and reserved are not. Anything unparsable is refused.
 */
export function classifyAddress(address: string): AddressClass {
  let raw = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  // Zone ids (fe80::1%eth0) are only meaningful on link-local addresses; refuse them.
  if (raw.includes('%')) return 'refused';
  if (raw.includes(':')) {
    // Canonical hex text first: ipaddr.js reads a trailing dotted quad (::127.0.0.1, the
    // IPv4-compatible form glibc prints) as if it were IPv4-mapped.
    try {
      raw = new URL(`http://[${raw}]/`).hostname.slice(1, -1);
    } catch {
      return 'refused';
    }
  }
  let ip: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    if (!ipaddr.isValid(raw)) return 'refused';
    // Only the strict forms: ipaddr.parse also accepts legacy IPv4 (0x7f.1, 2130706433).
    // The resolver and WHATWG URL always hand over dotted quads or RFC 5952 text.
    if (!ipaddr.IPv4.isValidFourPartDecimal(raw) && !ipaddr.IPv6.isValid(raw)) return 'refused';
    const parsed = ipaddr.parse(raw);
    // IPv4-compatible IPv6 (::a.b.c.d, deprecated): refused whatever it embeds.
    if (parsed.kind() === 'ipv6') {
      const parts = (parsed as ipaddr.IPv6).parts;
      const compat = parts.slice(0, 6).every((x) => x === 0) && (parts[6] !== 0 || parts[7] > 1);
      if (compat) return 'refused';
    }
    ip = ipaddr.process(raw);
  } catch {
    return 'refused';
  }
  const range = ip.range();
  if (range === 'loopback') return 'loopback';
  if (range !== 'unicast') return 'refused';
  if (ip.kind() === 'ipv6' && !(ip as ipaddr.IPv6).match(IPV6_GLOBAL_UNICAST)) return 'refused';
  return 'public';
}

/**
 * The production policy: public addresses on the allowed ports. With `allowLoopback`
 * (METADATA_ALLOW_LOOPBACK, tests only) loopback addresses are allowed on any port;
 * private, link-local and the other special ranges stay refused.
 */
export class DefaultAddressPolicy implements AddressPolicy {
  private readonly ports: ReadonlySet<number>;

  constructor(
    allowedPorts: readonly number[],
    private readonly allowLoopback = false,
  ) {
    this.ports = new Set(allowedPorts);
  }

  allows(address: string, port: number): boolean {
    const cls = classifyAddress(address);
    if (cls === 'loopback') return this.allowLoopback;
    return cls === 'public' && this.ports.has(port);
  }
}
