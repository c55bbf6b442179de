import { escapeHtml } from '../common/html';
import type { Language } from '../shared/language';

/** What a link card shows (the preview's parts, filled from the target's cached metadata). */
export interface Card {
  title: string;
  description: string | null;
  image: string | null;
  /** The target (og:url, the refresh and the link); null for a short with maxUses: none of them. */
  url: string | null;
}

const CONTINUE: Readonly<Record<Language, string>> = {
  de: 'Weiter zum Ziel',
  en: 'Continue to the target',
};

/**
 * The page a link-card crawler gets for a short with a social preview: `og:` and `twitter:` tags
 * (`summary_large_image` with an image, else `summary`), every value HTML-escaped, parts without a
 * value left out; with a target, `og:url`, a refresh to it and a link. Never indexed.
 */
export function cardPage(card: Card, lang: Language): string {
  const title = escapeHtml(card.title);
  const description = card.description === null ? null : escapeHtml(card.description);
  const image = card.image === null ? null : escapeHtml(card.image);
  const url = card.url === null ? null : escapeHtml(card.url);
  const meta = (attr: 'property' | 'name', key: string, value: string) =>
    `<meta ${attr}="${key}" content="${value}">`;
  const head = [
    '<meta charset="utf-8">',
    '<meta name="robots" content="noindex, nofollow">',
    `<title>${title}</title>`,
    meta('property', 'og:title', title),
    description === null ? '' : meta('property', 'og:description', description),
    image === null ? '' : meta('property', 'og:image', image),
    url === null ? '' : meta('property', 'og:url', url),
    meta('name', 'twitter:card', image === null ? 'summary' : 'summary_large_image'),
    meta('name', 'twitter:title', title),
    description === null ? '' : meta('name', 'twitter:description', description),
    image === null ? '' : meta('name', 'twitter:image', image),
    url === null ? '' : `<meta http-equiv="refresh" content="0; url=${url}">`,
  ].join('');
  const body = [
    `<h1>${title}</h1>`,
    description === null ? '' : `<p>${description}</p>`,
    url === null ? '' : `<p><a href="${url}">${CONTINUE[lang]}</a></p>`,
  ].join('');
  return `<!doctype html><html lang="${lang}"><head>${head}</head><body>${body}</body></html>`;
}
