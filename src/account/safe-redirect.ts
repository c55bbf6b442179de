/** A same-origin path (`/x…`, never `//host`, `/\host`, a scheme or control characters), else null. */
export function safeRedirectPath(raw: unknown): string | null {
  if (typeof raw !== 'string' || raw.length === 0 || raw.length > 2048) return null;
  if (!raw.startsWith('/') || raw[1] === '/' || raw.includes('\\')) return null;
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    if (c <= 0x20 || c === 0x7f) return null; // control characters and spaces
  }
  return raw;
}
