import { createHash } from 'node:crypto';
import { escapeHtml } from '../common/html';
import type { Language } from '../shared/language';
import type { PageTheme } from '../shared/pages';

/** What a public page shows: its texts and the links left to show, in order. */
export interface PageView {
  title: string;
  description: string | null;
  theme: PageTheme;
  links: ReadonlyArray<{ text: string; href: string }>;
}

const TEXTS: Record<
  Language,
  { empty: string; notFound: string; notFoundText: string; made: string }
> = {
  de: {
    empty: 'Hier sind noch keine Links.',
    notFound: 'Seite nicht gefunden',
    notFoundText: 'Diese Seite gibt es nicht (mehr).',
    made: 'Erstellt mit URL-Shorter',
  },
  en: {
    empty: 'There are no links here yet.',
    notFound: 'Page not found',
    notFoundText: 'This page does not exist (any more).',
    made: 'Made with URL-Shorter',
  },
};

const LIGHT =
  '--bg:#f6f7f9;--fg:#1b1f23;--muted:#57606a;--card:#ffffff;--line:#d0d7de;--accent:#0a58ca';
const DARK =
  '--bg:#0d1117;--fg:#e6edf3;--muted:#9da7b3;--card:#161b22;--line:#30363d;--accent:#6ea8fe';

const BASE =
  'body{margin:0;background:var(--bg);color:var(--fg);font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}' +
  'main{max-width:36rem;margin:0 auto;padding:3rem 1rem}' +
  'h1{font-size:1.6rem;margin:0 0 .5rem;text-align:center;overflow-wrap:anywhere}' +
  'p{margin:0 0 1.5rem;text-align:center;color:var(--muted);overflow-wrap:anywhere;white-space:pre-line}' +
  'ul{list-style:none;margin:0;padding:0}' +
  'li{margin:0 0 .75rem}' +
  'a.link{display:block;padding:.9rem 1rem;border:1px solid var(--line);border-radius:.75rem;background:var(--card);color:var(--fg);text-align:center;text-decoration:none;font-weight:600;overflow-wrap:anywhere}' +
  'a.link:hover,a.link:focus-visible{border-color:var(--accent);outline:2px solid var(--accent);outline-offset:1px}' +
  'footer{margin-top:2.5rem;text-align:center;font-size:.85rem;color:var(--muted)}';

/** The style of each theme (static: its hash goes into the page's CSP). */
const STYLES: Record<PageTheme, string> = {
  light: `:root{color-scheme:light;${LIGHT}}${BASE}`,
  dark: `:root{color-scheme:dark;${DARK}}${BASE}`,
  auto: `:root{color-scheme:light dark;${LIGHT}}@media (prefers-color-scheme:dark){:root{${DARK}}}${BASE}`,
};

const styleHash = (css: string) => `'sha256-${createHash('sha256').update(css).digest('base64')}'`;

/**
 * The Content-Security-Policy of each theme's page: nothing may load or run but the page's own
 * style (by its hash); links may be followed, nothing else (no scripts, images, frames, forms).
 */
export const PAGE_CSP: Record<PageTheme, string> = Object.fromEntries(
  Object.entries(STYLES).map(([theme, css]) => [
    theme,
    `default-src 'none'; style-src ${styleHash(css)}; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
  ]),
) as Record<PageTheme, string>;

function document(
  lang: Language,
  theme: PageTheme,
  title: string,
  head: string,
  body: string,
): string {
  return (
    `<!doctype html><html lang="${lang}" data-theme="${theme}"><head><meta charset="utf-8">` +
    '<meta name="viewport" content="width=device-width, initial-scale=1">' +
    `<title>${title}</title>${head}<style>${STYLES[theme]}</style></head>` +
    `<body><main>${body}</main></body></html>`
  );
}

/**
 * A link page as HTML: no script, every text escaped, its links by label in order, each to its
 * short's link (so visits count through the follow).
 */
export function pageHtml(view: PageView, lang: Language): string {
  const t = TEXTS[lang];
  const title = escapeHtml(view.title);
  const description = view.description ? escapeHtml(view.description) : null;
  const head =
    `<meta property="og:title" content="${title}">` +
    (description
      ? `<meta name="description" content="${description}"><meta property="og:description" content="${description}">`
      : '');
  const links = view.links.length
    ? `<ul>${view.links
        .map(
          (l) =>
            `<li><a class="link" href="${escapeHtml(l.href)}" rel="noopener">${escapeHtml(l.text)}</a></li>`,
        )
        .join('')}</ul>`
    : `<p>${t.empty}</p>`;
  const body =
    `<h1>${title}</h1>${description ? `<p>${description}</p>` : ''}${links}` +
    `<footer>${t.made}</footer>`;
  return document(lang, view.theme, title, head, body);
}

/** The answer for a page that does not exist (404), in the visitor's language. */
export function pageNotFoundHtml(lang: Language): string {
  const t = TEXTS[lang];
  return document(
    lang,
    'auto',
    t.notFound,
    '<meta name="robots" content="noindex">',
    `<h1>${t.notFound}</h1><p>${t.notFoundText}</p>`,
  );
}
