import { domainToASCII } from 'node:url';

/**
 * Normalises a host for blacklist comparison: lower case, IDN as punycode, trailing
 * dots removed, a leading `www.` removed. Accepts a bare host (with optional port or
 * userinfo) or a whole URL. Returns null when nothing host-like is left.
 */
export function normalizeHost(input: string): string | null {
  let raw = input.trim();
  if (!raw) return null;
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(raw)) raw = `http://${raw}`;
  let host: string;
  try {
    host = new URL(raw).hostname; // drops userinfo and port, lower-cases, punycodes IDN
  } catch {
    return null;
  }
  if (host.startsWith('[')) return host; // IPv6 literal
  host = domainToASCII(host.replace(/\.+$/, '')) || host.replace(/\.+$/, '');
  host = host.replace(/^www\./, '');
  return host || null;
}

/** True when `host` equals `entry` or is a subdomain of it (both normalised). */
export function hostMatches(host: string, entry: string): boolean {
  return host === entry || host.endsWith(`.${entry}`);
}
