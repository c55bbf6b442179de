import { locale } from './current';

/**
 * A text that depends on a count: its forms by the language's plural rule ('1 Eintrag',
 * '2 Einträge'). German and English need `one` and `other`; a language with more forms falls back
 * to `other`.
 */
export interface PluralForms<S extends string = string> {
  readonly one: S;
  readonly other: S;
}

const rules = new Map<string, Intl.PluralRules>();

/** The form of `forms` for `count` in the given (else the current) locale. */
export function pluralForm<S extends string>(
  forms: PluralForms<S>,
  count: number,
  loc = locale(),
): S {
  let rule = rules.get(loc);
  if (!rule) rules.set(loc, (rule = new Intl.PluralRules(loc)));
  return rule.select(count) === 'one' ? forms.one : forms.other;
}
