/** German natural-language expiry ('morgen um 15 Uhr', 'in 2 Tagen', '12.05.2023'); chrono-node/de loads lazily. */
type ParseDate = (text: string, ref?: Date, option?: { forwardDate?: boolean }) => Date | null;

let parser: Promise<ParseDate> | null = null;

export function loadExpiryParser(): Promise<ParseDate> {
  parser ??= import('chrono-node/de').then((m) => m.parseDate as ParseDate);
  return parser;
}

/** The understood date, or null when the text is empty or not understood. */
export async function parseExpiry(text: string, ref: Date = new Date()): Promise<Date | null> {
  if (!text.trim()) return null;
  const parseDate = await loadExpiryParser();
  const d = parseDate(text, ref, { forwardDate: true });
  return d && !Number.isNaN(d.getTime()) ? d : null;
}

export function formatDateTime(d: Date | string): string {
  const date = typeof d === 'string' ? new Date(d) : d;
  return new Intl.DateTimeFormat('de-DE', { dateStyle: 'medium', timeStyle: 'short' }).format(date);
}

/** The created banner warns when a short expires within the next 24 hours. */
export function expiresWithin24h(expireAt: string | null, now = Date.now()): boolean {
  return expireAt !== null && new Date(expireAt).getTime() - now <= 24 * 3600_000;
}

/** An example date for the expiry field's placeholder, always in the future: 12.05. of next year. */
export function exampleExpiryDate(now: Date = new Date()): string {
  return `12.05.${now.getFullYear() + 1}`;
}
