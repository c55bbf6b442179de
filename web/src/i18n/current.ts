import { localeOf, type Language } from '../lib/language-rule';
import { de, type Messages } from './de';

/**
 * The catalogue of the current language: the German one at first, replaced in place when another
 * language is applied (state/language.ts), so that every `msg.…` read during a render is in the
 * chosen language. Components read it while rendering; the app re-renders on a switch.
 */
export const msg: Messages = structuredClone(de) as Messages;

let current: Language = 'de';

/** The Intl locale of the current language: dates and numbers follow the chosen language. */
export function locale(): string {
  return localeOf(current);
}

/** The current language ('de' until another one is applied). */
export function currentLanguage(): Language {
  return current;
}

/** Copies a language's catalogue into `msg` (same shape: every section, text and array). */
export function applyCatalogue(lang: Language, next: Messages): void {
  current = lang;
  copyInto(msg as unknown as Record<string, unknown>, next as unknown as Record<string, unknown>);
}

function copyInto(target: Record<string, unknown>, source: Record<string, unknown>): void {
  for (const [k, v] of Object.entries(source)) {
    const cur = target[k];
    if (v && typeof v === 'object' && !Array.isArray(v) && cur && typeof cur === 'object') {
      copyInto(cur as Record<string, unknown>, v as Record<string, unknown>);
    } else {
      target[k] = structuredClone(v);
    }
  }
}
