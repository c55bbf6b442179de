/** Origin of a URL string (`scheme://host[:port]`), or null (no URL, or an opaque origin). */
export function originOf(url: string): string | null {
  try {
    const u = new URL(url);
    return u.origin === 'null' ? null : u.origin;
  } catch {
    return null;
  }
}
