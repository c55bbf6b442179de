/** Every text of a catalogue by its dotted path (array members by index): for the catalogue tests. */
export function catalogueTexts(v: unknown, path = ''): Map<string, string> {
  const out = new Map<string, string>();
  if (typeof v === 'string') out.set(path, v);
  else if (v && typeof v === 'object')
    for (const [k, child] of Object.entries(v))
      for (const [p, text] of catalogueTexts(child, path ? `${path}.${k}` : k)) out.set(p, text);
  return out;
}
