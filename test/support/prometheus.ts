/** Reading the Prometheus text exposition in tests (no promtool here): strict, line by line. */

/** The families and samples of a Prometheus text exposition, checked line by line. */
export function parseExposition(text: string): {
  families: Map<string, string>;
  samples: Array<{ name: string; labels: string; value: number }>;
} {
  const families = new Map<string, string>();
  const samples: Array<{ name: string; labels: string; value: number }> = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('# HELP ')) continue;
    const type =
      /^# TYPE ([a-zA-Z_:][a-zA-Z0-9_:]*) (counter|gauge|histogram|summary|untyped)$/.exec(line);
    if (type) {
      families.set(type[1], type[2]);
      continue;
    }
    const sample = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{[^}]*\})? (\S+)$/.exec(line);
    if (!sample) throw new Error(`not a line of the exposition format: ${line}`);
    // Prometheus reads a value as Go's ParseFloat does: NaN and ±Inf in any case.
    const raw = sample[3].toLowerCase();
    const value = /^[+-]?inf$/.test(raw)
      ? (raw.startsWith('-') ? -1 : 1) * Infinity
      : raw === 'nan'
        ? NaN
        : Number(sample[3]);
    if (Number.isNaN(value) && raw !== 'nan') throw new Error(`not a value: ${line}`);
    samples.push({ name: sample[1], labels: sample[2] ?? '', value });
  }
  return { families, samples };
}

/** The family a sample belongs to (a histogram's _bucket, _sum and _count are its samples). */
export function familyOf(name: string, families: Map<string, string>): string | undefined {
  if (families.has(name)) return name;
  const base = name.replace(/_(bucket|sum|count)$/, '');
  const type = families.get(base);
  return type === 'histogram' || type === 'summary' ? base : undefined;
}
