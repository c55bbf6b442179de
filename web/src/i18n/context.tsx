import { createContext, useContext, useMemo, type ReactNode } from 'react';
import { useSnapshot } from 'valtio';
import { localeOf, type Language } from '../lib/language-rule';
import { language } from '../state/language';
import { currentLanguage, msg as current } from './current';
import { t, type Messages } from './text';

/** What a component needs to speak: the active catalogue, the formatter, the language. */
export interface I18n {
  readonly msg: Messages;
  readonly t: typeof t;
  readonly lang: Language;
  /** The Intl locale of the language (dates and numbers). */
  readonly locale: string;
}

function i18nOf(lang: Language, msg: Messages): I18n {
  return { msg, t, lang, locale: localeOf(lang) };
}

const I18nContext = createContext<I18n | null>(null);

/**
 * Provides the active catalogue (state/language.ts applies it, then sets `language.current`): a
 * switch gives the context a new value, so every component that reads it renders again in the
 * new language, keeping its state (what was typed stays).
 */
export function I18nProvider({ children }: { children: ReactNode }) {
  const { current: lang } = useSnapshot(language);
  const value = useMemo(() => i18nOf(lang, current), [lang]);
  return <I18nContext.Provider value={value}>{children}</I18nContext.Provider>;
}

/**
 * The active catalogue and its formatter: `const { msg, t } = useT();` then
 * `t(msg.error.retry.seconds, { n })` (the compiler checks the placeholder names). Outside a provider
 * (a component rendered alone in a test) the current language's.
 */
export function useT(): I18n {
  return useContext(I18nContext) ?? i18nOf(currentLanguage(), current);
}
