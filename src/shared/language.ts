/** The languages of the product (CONTRACT "Language"): the web client's and the server's own pages. */
export const LANGUAGES = ['de', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];

/**
 * The start page's title in each language: index.html's `<title>` and description, which the
 * server writes in the visitor's language before any script runs (the client's catalogues say the
 * same as `app.pageTitle`; the German one is the specification's).
 */
export const PAGE_TITLES = {
  de: 'URL-Shorter: Teile deine Links einfach und schnell',
  en: 'URL-Shorter: Share your links simply and quickly',
} as const satisfies Record<Language, string>;

export function isLanguage(v: unknown): v is Language {
  return v === 'de' || v === 'en';
}

/** The first of a list of language tags that the product speaks ('en-GB' is English), or null. */
export function firstLanguage(tags: readonly string[]): Language | null {
  for (const tag of tags) {
    const primary = tag.trim().toLowerCase().split('-')[0];
    if (isLanguage(primary)) return primary;
  }
  return null;
}

/**
 * The language of an `Accept-Language` header: its tags by weight (a tag's order breaks ties; `q=0`
 * refuses it), the first the product speaks; else the fallback (the instance's DEFAULT_LANGUAGE).
 */
export function acceptedLanguage(header: string | undefined, fallback: Language): Language {
  if (!header) return fallback;
  const tags = header
    .slice(0, 1000)
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      const weight = q ? Number(q.slice(2)) : 1;
      return { tag: tag.trim(), weight: Number.isFinite(weight) ? weight : 0, index };
    })
    .filter((t) => t.tag && t.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.index - b.index)
    .map((t) => t.tag);
  return firstLanguage(tags) ?? fallback;
}
