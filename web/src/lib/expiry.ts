import { currentLanguage, locale } from '../i18n/current';
import type { Language } from './language-rule';

/**
 * Natural-language expiry in the chosen language: German ('morgen um 15 Uhr', 'in 2 Tagen',
 * '12.05.2023') with chrono-node/de, English ('tomorrow at 3pm', 'in 2 days', 'next friday') with
 * chrono-node/en; each parser loads lazily, the first time its language is typed in.
 */
type ParseDate = (text: string, ref?: Date, option?: { forwardDate?: boolean }) => Date | null;

const parsers = new Map<Language, Promise<ParseDate>>();

export function loadExpiryParser(lang: Language = currentLanguage()): Promise<ParseDate> {
  let parser = parsers.get(lang);
  if (!parser) {
    parser =
      lang === 'en'
        ? import('chrono-node/en').then((m) => m.parseDate as ParseDate)
        : import('chrono-node/de').then((m) => m.parseDate as ParseDate);
    parsers.set(lang, parser);
  }
  return parser;
}

/** The understood date, or null when the text is empty or not understood. */
export async function parseExpiry(
  text: string,
  ref: Date = new Date(),
  lang: Language = currentLanguage(),
): Promise<Date | null> {
  if (!text.trim()) return null;
  const parseDate = await loadExpiryParser(lang);
  const d = parseDate(text, ref, { forwardDate: true });
  return d && !Number.isNaN(d.getTime()) ? d : null;
}

export function formatDateTime(d: Date | string): string {
  const date = typeof d === 'string' ? new Date(d) : d;
  return new Intl.DateTimeFormat(locale(), { dateStyle: 'medium', timeStyle: 'short' }).format(
    date,
  );
}

/** The created banner warns when a short expires within the next 24 hours. */
export function expiresWithin24h(expireAt: string | null, now = Date.now()): boolean {
  return expireAt !== null && new Date(expireAt).getTime() - now <= 24 * 3600_000;
}

/**
 * An example date for the expiry field's placeholder, always in the future: the 12th of May of
 * next year, as the language writes it (12.05.2027, 5/12/2027).
 */
export function exampleExpiryDate(
  now: Date = new Date(),
  lang: Language = currentLanguage(),
): string {
  const year = now.getFullYear() + 1;
  return lang === 'en' ? `5/12/${year}` : `12.05.${year}`;
}
