import type { de } from './de';

/** The placeholder names of a text: 'in {n} Sekunden' → 'n'. */
type Holes<S extends string> = S extends `${string}{${infer K}}${infer R}` ? K | Holes<R> : never;

type Intersection<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void
  ? I
  : never;

declare const holes: unique symbol;

/**
 * A catalogue text with the placeholders P: a string that contains each `{p}` (so a translation
 * that loses one does not compile), and remembers their names for `t` (below).
 */
export type Text<P extends string = never> = [P] extends [never]
  ? string
  : Intersection<P extends string ? `${string}{${P}}${string}` : never> & {
      readonly [holes]?: P;
    };

/**
 * Texts, arrays and sections of a catalogue, whatever their wording, with the placeholders of
 * the German texts.
 */
export type Catalogue<T> = T extends string
  ? Text<Holes<T>>
  : T extends readonly (infer U)[]
    ? readonly Catalogue<U>[]
    : { readonly [K in keyof T]: Catalogue<T[K]> };

/**
 * The shape every language's catalogue has: the same sections and keys as `de` (`errors`: every
 * ErrorKey, `fields`: every field of the short), any wording, the same placeholders.
 */
export type Messages = Catalogue<typeof de>;

/** The placeholder names of a catalogue text (of any of them, for a choice between texts). */
export type HolesOf<S> = S extends { readonly [holes]?: infer P extends string } ? P : never;

/** The values a text's placeholders need: exactly its names, checked by the compiler. */
export type Values<S> = { readonly [K in HolesOf<S>]: string | number };

/**
 * Replaces a text's {name} placeholders: `t(msg.error.retry.seconds, { n: 5 })`. For a catalogue
 * text the compiler asks for every placeholder and refuses an unknown one; a text chosen at run
 * time (a plain `string`, e.g. `msg.errors[key]`) takes any values.
 */
export function t<S extends string>(
  text: S,
  ...values: [HolesOf<S>] extends [never]
    ? [values?: Readonly<Record<string, string | number>>]
    : [Values<S>]
): string {
  const v = (values[0] ?? {}) as Record<string, string | number>;
  return text.replace(/\{(\w+)\}/g, (m, k: string) => (k in v ? String(v[k]) : m));
}
