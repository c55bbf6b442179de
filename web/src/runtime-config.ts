import { isLanguage, type Language } from '@shared/language';

/** The runtime-config island the server injects into index.html (see src/web/runtime-config.ts). */
export interface FooterLink {
  name: string;
  url: string;
}
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
  /** The start page's figure cards (HOME_FIGURES): fixed, this instance's counts, or none. */
  homeFigures: 'static' | 'live' | 'off';
  /** The instance's language (DEFAULT_LANGUAGE): the client's with the language switch off. */
  defaultLanguage: Language;
  /** The embedded language switch flag (null: ask the external flag service). */
  languageSwitch: boolean | null;
}

const defaults: RuntimeConfig = {
  // The server's island always says the version; without one (the dev server), the build's.
  version: __APP_VERSION__,
  baseUrl: typeof location !== 'undefined' ? location.origin : 'http://localhost:8080',
  flags: {
    url: '/api/frontend',
    clientKey: 'url-shorter-embedded',
    refreshSeconds: 15,
    embedded: true,
  },
  sentryDsn: null,
  footer: {
    imprintUrl: null,
    privacyUrl: null,
    termsUrl: null,
    contactUrl: null,
    chatUrl: null,
    services: [],
  },
  homeFigures: 'live',
  defaultLanguage: 'de',
  languageSwitch: null,
};

function read(): RuntimeConfig {
  if (typeof document === 'undefined') return defaults;
  const el = document.getElementById('runtime-config');
  if (!el?.textContent) return defaults;
  try {
    const rc = JSON.parse(el.textContent) as Partial<RuntimeConfig>;
    return {
      ...defaults,
      ...rc,
      footer: { ...defaults.footer, ...rc.footer },
      flags: { ...defaults.flags, ...rc.flags },
      defaultLanguage: isLanguage(rc.defaultLanguage)
        ? rc.defaultLanguage
        : defaults.defaultLanguage,
    };
  } catch {
    return defaults;
  }
}

export const runtimeConfig: RuntimeConfig = read();

/** The public short link for a code. */
export function shortLink(code: string): string {
  return `${runtimeConfig.baseUrl}/s/${encodeURIComponent(code)}`;
}
