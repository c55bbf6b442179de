import { normalizeHost } from '../blacklist/host';

export const MAX_URL_LENGTH = 2048;

/**
 * Checks a target URL: absolute http(s), at most 2048 characters, no control
 * characters or whitespace, a real host, not this service itself.
 * Returns the normalised URL (WHATWG serialisation, safe for a Location header)
 * or an error message for the `url` field.
 */
export function parseTargetUrl(url: string, baseUrl: string): { url: string } | { error: string } {
  const error = checkTargetUrl(url, baseUrl);
  if (error) return { error };
  const href = new URL(url).href;
  return href.length > MAX_URL_LENGTH
    ? { error: `must be at most ${MAX_URL_LENGTH} characters long` }
    : { url: href };
}

function checkTargetUrl(url: string, baseUrl: string): string | null {
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
  const host = parsed.hostname;
  if (!host || host === '.' || /\.\./.test(host)) return 'must have a valid host';
  if (!host.startsWith('[') && !/^[a-z0-9.-]+$/.test(host)) return 'must have a valid host';
  if (!host.startsWith('[') && host.split('.').some((label) => label.length > 63)) {
    return 'must have a valid host';
  }
  const self = new URL(baseUrl);
  const selfPort = self.port || (self.protocol === 'https:' ? '443' : '80');
  const port = parsed.port || (parsed.protocol === 'https:' ? '443' : '80');
  if (normalizeHost(host) === normalizeHost(self.hostname) && port === selfPort) {
    return 'must not point to this service';
  }
  return null;
}
