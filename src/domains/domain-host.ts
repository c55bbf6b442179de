import ipaddr from 'ipaddr.js';
import { domainToASCII } from 'node:url';

/** A host name as DNS allows it: 1–63 characters a–z, 0–9 and `-` per label, 253 in all. */
const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;
export const MAX_HOST_LENGTH = 253;

/**
 * A domain's host as it is stored and compared: lower case, IDN as punycode (`bücher.example` →
 * `xn--bcher-kva.example`), no trailing dot; `{error}` when it is no host name a user could own
 * (an address, a port, a path, a single label, too long).
 */
export function normalizeDomainHost(input: string): { host: string } | { error: string } {
  const raw = input.trim().replace(/\.$/, '');
  if (!raw) return { error: 'must not be empty' };
  if (/[/:@?#\s\\]/.test(raw)) return { error: 'must be a host name without scheme, port or path' };
  const host = domainToASCII(raw.toLowerCase());
  if (!host) return { error: 'is not a valid host name' };
  if (ipaddr.isValid(host)) return { error: 'must be a host name, not an address' };
  const labels = host.split('.');
  if (labels.length < 2) return { error: 'must have at least two labels (e.g. go.example.com)' };
  if (host.length > MAX_HOST_LENGTH || !labels.every((l) => LABEL.test(l))) {
    return { error: 'is not a valid host name' };
  }
  if (/^\d+$/.test(labels[labels.length - 1])) return { error: 'is not a valid host name' };
  return { host };
}

/** The host a request was sent to (`Host` header), normalised as domains are, without its port. */
export function requestHost(header: string | undefined): string | null {
  if (!header) return null;
  const h = header.trim().toLowerCase();
  if (h.startsWith('[')) return null; // an IPv6 literal is never an own domain
  const host = h.replace(/:\d+$/, '').replace(/\.$/, '');
  return host || null;
}
