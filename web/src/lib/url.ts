/**
 * A URL typed without a scheme (`heise.de`, `www.example.org/pfad`) as the browser and the server
 * take it: with `https://` in front. Text that has a scheme (`http://…`, `mailto:`), is empty, has
 * spaces, or whose host has no dot (and is not localhost) is left as it is, for the field's own
 * check to judge.
 */
export function withScheme(text: string): string {
  const v = text.trim();
  if (!v || /\s/.test(v)) return text;
  if (/^[a-z][a-z\d+.-]*:\/\//i.test(v)) return text;
  if (v.startsWith('//')) return `https:${v}`;
  const scheme = /^([a-z][a-z\d+.-]*):(.*)$/i.exec(v);
  // `mailto:…`, `javascript:…` keep their scheme; `example.com:8080/…` and `localhost:3000` are hosts.
  if (scheme && !scheme[1].includes('.') && !/^\d+(?:[/?#]|$)/.test(scheme[2])) return text;
  const candidate = `https://${v}`;
  try {
    const host = new URL(candidate).hostname;
    if (!host.includes('.') && host !== 'localhost') return text;
  } catch {
    return text;
  }
  return candidate;
}
