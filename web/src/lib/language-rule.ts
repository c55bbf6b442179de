import { firstLanguage, isLanguage, type Language } from '@shared/language';

export { isLanguage, type Language };

/**
 * The language the client speaks (CONTRACT "Language"): with the language switch on, a stored
 * choice wins, then the browser's preference (`navigator.languages`), then the instance's default
 * (DEFAULT_LANGUAGE); with the switch off, the default alone. A stored value that is not a
 * language is to be removed.
 */
export function resolveLanguage(input: {
  switchOn: boolean;
  stored: string | null;
  browser: readonly string[];
  fallback: Language;
}): { language: Language; removeStored: boolean } {
  const removeStored = input.stored !== null && !isLanguage(input.stored);
  if (!input.switchOn) return { language: input.fallback, removeStored };
  if (isLanguage(input.stored)) return { language: input.stored, removeStored };
  return { language: firstLanguage(input.browser) ?? input.fallback, removeStored };
}

/** The Intl locale of a language (dates, numbers). */
export function localeOf(language: Language): string {
  return language === 'en' ? 'en-US' : 'de-DE';
}
