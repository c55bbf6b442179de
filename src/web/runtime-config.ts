import { type AppConfig, type FooterLink, type HomeFigures } from '../config/config';
import { APP_VERSION } from '../config/version';
import { escapeHtml } from '../common/html';
import { PAGE_TITLES, type Language } from '../shared/language';

/** What the built client learns at runtime from the island in index.html (one build runs anywhere). */
export interface RuntimeConfig {
  version: string;
  baseUrl: string;
  flags: { url: string; clientKey: string; refreshSeconds: number; embedded: boolean };
  sentryDsn: string | null;
  footer: {
    imprintUrl: string | null;
    privacyUrl: string | null;
    termsUrl: string | null;
    contactUrl: string | null;
    chatUrl: string | null;
    services: FooterLink[];
  };
  /** The start page's figure cards (HOME_FIGURES): `live` asks GET /api/figures. */
  homeFigures: HomeFigures;
  /** The instance's language (DEFAULT_LANGUAGE): the client's with the language switch off. */
  defaultLanguage: Language;
  /**
   * The embedded flag `url.frontend.languageSwitch` (null with an external Unleash): the client
   * speaks the visitor's language from the first paint instead of once the flags have arrived.
   */
  languageSwitch: boolean | null;
}

export const EMBEDDED_FLAGS_PATH = '/api/frontend';
export const EMBEDDED_CLIENT_KEY = 'url-shorter-embedded';

export function buildRuntimeConfig(config: AppConfig): RuntimeConfig {
  const external = Boolean(config.unleashUrl && config.unleashClientKey);
  return {
    version: APP_VERSION,
    baseUrl: config.baseUrl,
    flags: {
      url: external ? config.unleashUrl! : EMBEDDED_FLAGS_PATH,
      clientKey: external ? config.unleashClientKey! : EMBEDDED_CLIENT_KEY,
      refreshSeconds: config.production ? 60 : 15,
      embedded: !external,
    },
    sentryDsn: config.sentryDsnWeb ?? null,
    footer: {
      imprintUrl: config.web.imprintUrl ?? null,
      privacyUrl: config.web.privacyUrl ?? null,
      termsUrl: config.web.termsUrl ?? null,
      contactUrl: config.web.contactUrl ?? null,
      chatUrl: config.web.chatUrl ?? null,
      services: config.web.services,
    },
    homeFigures: config.web.homeFigures,
    defaultLanguage: config.web.defaultLanguage,
    languageSwitch: external ? null : Boolean(config.flags['url.frontend.languageSwitch']),
  };
}

/** JSON that is safe inside a <script> element. */
export function scriptSafeJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

export const ISLAND_PLACEHOLDER = '<!--runtime-config-->';

/**
 * Puts the island where the placeholder is, else right before </head>; `<html lang>`, the
 * `<title>` and the description say `lang` (the visitor's language as the server can tell it:
 * Accept-Language with the language switch on, else the instance's) until the client has chosen
 * one (state/language.ts).
 */
export function injectRuntimeConfig(
  html: string,
  rc: RuntimeConfig,
  lang: Language = rc.defaultLanguage,
): string {
  const title = escapeHtml(PAGE_TITLES[lang]);
  html = html.replace(/<html lang="[a-z-]*"/i, () => `<html lang="${lang}"`);
  html = html.replace(/<title>[^<]*<\/title>/i, () => `<title>${title}</title>`);
  html = html.replace(
    /<meta name="description" content="[^"]*"/i,
    () => `<meta name="description" content="${title}"`,
  );
  const island = `<script id="runtime-config" type="application/json">${scriptSafeJson(rc)}</script>`;
  if (html.includes(ISLAND_PLACEHOLDER)) return html.replace(ISLAND_PLACEHOLDER, () => island);
  if (html.includes('</head>')) return html.replace('</head>', () => `${island}</head>`);
  return island + html;
}
