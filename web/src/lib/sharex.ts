/** A ShareX custom-uploader file (.sxcu) that shortens URLs through this service (POST /api/code with the API key as Bearer token). */
export interface ShareXConfig {
  Version: string;
  Name: string;
  DestinationType: 'URLShortener';
  RequestMethod: 'POST';
  RequestURL: string;
  Headers: { Authorization: string };
  Body: 'JSON';
  Data: string;
  URL: string;
  DeletionURL: string;
  ErrorMessage: string;
}

export const SHAREX_FILE_NAME = 'ShareX.sxcu';
/** The custom-uploader format with `{input}` / `{json:…}` placeholders (ShareX 14 and later). */
export const SHAREX_VERSION = '14.0.0';

function trimBase(base: string): string {
  return base.replace(/\/+$/, '');
}

/**
 * The uploader config for `base` (the runtime config's base URL) and the user's API key. With a
 * `domain` (an own domain the user may use) the shorts are created there (`domain` in the create
 * body) and their links are `{scheme}://{domain}/{code}`; such a config has no deletion link (the
 * delete page resolves codes on this service's host).
 */
export function buildShareXConfig(
  base: string,
  apiKey: string,
  name = 'URL-Shorter',
  domain = '',
): ShareXConfig {
  const b = trimBase(base);
  let host = b;
  try {
    host = new URL(b).host;
  } catch {
    // keep the base as it is
  }
  if (domain) host = domain;
  return {
    Version: SHAREX_VERSION,
    Name: `${name} (${host})`,
    DestinationType: 'URLShortener',
    RequestMethod: 'POST',
    RequestURL: `${b}/api/code/`,
    Headers: { Authorization: `Bearer ${apiKey}` },
    Body: 'JSON',
    Data: JSON.stringify(domain ? { url: '{input}', domain } : { url: '{input}' }),
    // On an own domain the answer's shortUrl is the link (the server's one rule for it).
    URL: domain ? '{json:shortUrl}' : `${b}/s/{json:code}`,
    DeletionURL: domain ? '' : `${b}/s/{json:code}/delete`,
    ErrorMessage: '{json:error}',
  };
}

/** The file's text (pretty JSON, as ShareX exports it). */
export function shareXFileText(config: ShareXConfig): string {
  return `${JSON.stringify(config, null, 2)}\n`;
}

/** Offers the config as a download named ShareX.sxcu. */
export function downloadShareX(config: ShareXConfig): void {
  const blob = new Blob([shareXFileText(config)], { type: 'application/json' });
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = SHAREX_FILE_NAME;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
