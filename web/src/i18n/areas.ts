type Merged<A extends readonly object[]> = A extends readonly [
  infer H,
  ...infer R extends readonly object[],
]
  ? H & Merged<R>
  : unknown;

/** A language's catalogue from its areas (i18n/de/, i18n/en/: one file each). */
export function fromAreas<A extends readonly object[]>(...areas: A): Merged<A> {
  return Object.assign({}, ...areas) as Merged<A>;
}
