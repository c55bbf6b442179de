import { localeOf, type Language } from '../lib/language-rule';
import { de } from './de';
import type { Messages } from './text';

/**
 * The catalogue of the current language, for code outside React (formatters, error messages,
 * the document title): the German one at first, replaced when another language is applied
 * (state/language.ts; an ES module binding, so every importer reads the new one). Components read
 * the catalogue from the context instead (`useT()`, i18n/context.tsx), which re-renders them on a
 * switch.
 */
export let msg: Messages = de;

let current: Language = 'de';

/** The Intl locale of the current language: dates and numbers follow the chosen language. */
export function locale(): string {
  return localeOf(current);
}

/** The current language ('de' until another one is applied). */
export function currentLanguage(): Language {
  return current;
}

/** Makes a language's catalogue the current one. */
export function applyCatalogue(lang: Language, next: Messages): void {
  current = lang;
  msg = next;
}
