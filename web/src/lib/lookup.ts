import { CUSTOM_CODE_PATTERN } from '@shared/limits';

/**
 * Turns what the user typed into the lookup form (a code or a full short URL, with or
 * without host, with or without /s/, trailing slashes) into a short code, or null.
 */
export function parseLookup(input: string): string | null {
  let s = input.trim();
  if (!s) return null;
  // Drop scheme and host: "https://sho.rt/s/abc", "sho.rt/s/abc", "//sho.rt/abc".
  s = s.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '').replace(/^\/\//, '');
  const hadHost =
    /^[^/?#\s]+\.[^/?#\s]+\//.test(s) || /^[^/?#\s]+:\d+\//.test(s) || /^localhost\//i.test(s);
  if (hadHost) s = s.slice(s.indexOf('/'));
  s = s.replace(/[?#].*$/, '');
  const parts = s.split('/').filter(Boolean);
  if (parts[0] === 's') parts.shift();
  // "/s/{code}/info" and friends: keep the code.
  const code = parts[0];
  if (!code) return null;
  let decoded: string;
  try {
    decoded = decodeURIComponent(code);
  } catch {
    return null;
  }
  // Every code, generated or chosen, has the form of a custom code (the server's pattern).
  return CUSTOM_CODE_PATTERN.test(decoded) ? decoded : null;
}
