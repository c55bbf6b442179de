import { applyCatalogue } from '../i18n/current';
import { de } from '../i18n/de';
import type { Messages } from '../i18n/text';
import { proxy, subscribe } from 'valtio';
import { FLAGS } from '../lib/flag-rule';
import { resolveLanguage, type Language } from '../lib/language-rule';
import { runtimeConfig } from '../runtime-config';

export const LANGUAGE_KEY = 'language';

/** The language the client speaks now; `current` changes only once its catalogue is applied. */
export const language = proxy({ current: 'de' as Language });

/** The English catalogue is its own chunk, loaded only when English is chosen. */
function catalogue(lang: Language): Promise<Messages> {
  return lang === 'en' ? import('../i18n/en').then((m) => m.en) : Promise.resolve(de);
}

let wanted: Language = 'de';

/**
 * The page's own words outside the app: `<html lang>` and index.html's description (what a
 * bookmark, a shared tab or an assistive tool reads) say the language the page speaks.
 */
function applyToDocument(lang: Language, next: Messages): void {
  if (typeof document === 'undefined') return;
  document.documentElement.lang = lang;
  document.querySelector('meta[name="description"]')?.setAttribute('content', next.app.pageTitle);
}

/** Loads and applies a language: the catalogue, the document's language, then the re-render. */
export async function applyLanguage(lang: Language): Promise<void> {
  wanted = lang;
  const next = await catalogue(lang);
  if (wanted !== lang) return; // a later choice won while this one loaded
  applyCatalogue(lang, next);
  applyToDocument(lang, next);
  language.current = lang;
}

function preferred(): readonly string[] {
  return typeof navigator !== 'undefined' ? (navigator.languages ?? [navigator.language]) : [];
}

/** Resolves the language (CONTRACT "Language") and applies it; again when the flags change. */
export function initLanguage(switchOn: boolean): Promise<void> {
  const stored = localStorage.getItem(LANGUAGE_KEY);
  const { language: lang, removeStored } = resolveLanguage({
    switchOn,
    stored,
    browser: preferred(),
    fallback: runtimeConfig.defaultLanguage,
  });
  if (removeStored) localStorage.removeItem(LANGUAGE_KEY);
  return applyLanguage(lang);
}

/** The footer's choice: remembered like the theme and applied at once. */
export function chooseLanguage(lang: Language): Promise<void> {
  localStorage.setItem(LANGUAGE_KEY, lang);
  return applyLanguage(lang);
}

/**
 * At start the language applies at once: with the embedded flags the server told the switch in
 * the runtime config; with an external flag service a stored choice is taken (it was made with the
 * switch on). Once the flags are known, the language is resolved again whenever the switch changes.
 */
export function startLanguage(flags: { ready: boolean; enabled: Record<string, boolean> }): void {
  let switchOn: boolean | null = runtimeConfig.languageSwitch;
  const resolve = () => {
    const on = flags.ready ? Boolean(flags.enabled[FLAGS.languageSwitch]) : null;
    if (on === null || on === switchOn) return;
    switchOn = on;
    void initLanguage(on);
  };
  void initLanguage(switchOn ?? localStorage.getItem(LANGUAGE_KEY) !== null);
  subscribe(flags, resolve);
  resolve();
}
