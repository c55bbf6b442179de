/**
 * Tags of a short (CONTRACT "Tags and bulk edits"), shared by the server and the web client: at
 * most MAX_TAGS per short, each 1–TAG_MAX_LENGTH characters of Unicode letters, digits, space,
 * `-`, `_` and `.`, trimmed; tags that differ only in case are one tag, and a short keeps the
 * spelling first written on it (`["Herbst", "herbst"]` is `["Herbst"]`).
 */
export const MAX_TAGS = 10;
export const TAG_MAX_LENGTH = 32;
/**
 * What the boundary reads of a short's `tags` at all (an array of at most this many texts of at
 * most TAG_INPUT_MAX_LENGTH characters); the rules above are the field's check (normalizeTags).
 */
export const MAX_TAG_INPUTS = 50;
export const TAG_INPUT_MAX_LENGTH = 100;
const TAG_PATTERN = /^[\p{L}\p{M}\p{N} ._-]+$/u;

/** A tag as written: NFC and trimmed (what is stored and shown). */
export function cleanTag(tag: string): string {
  return tag.normalize('NFC').trim();
}

/** A tag's key: what makes two spellings one tag (lower case, independent of any locale). */
export function tagKey(tag: string): string {
  return cleanTag(tag).toLowerCase();
}

/**
 * Whether a cleaned tag is allowed (length and characters). Its key must fit as well: a few
 * letters grow in lower case (`İ` is `i̇`), and the key is what `short_tags.tag` stores.
 */
export function isValidTag(tag: string): boolean {
  return (
    tag.length >= 1 &&
    tag.length <= TAG_MAX_LENGTH &&
    TAG_PATTERN.test(tag) &&
    tag.toLowerCase().length <= TAG_MAX_LENGTH
  );
}

/**
 * A list of tags as given: each cleaned, the first spelling of each key kept, in order. Answers
 * the tags, or the first tag that is not allowed (`invalid`), or `tooMany` beyond MAX_TAGS.
 */
export function normalizeTags(
  input: readonly string[],
): { tags: string[] } | { invalid: string } | { tooMany: number } {
  const seen = new Set<string>();
  const tags: string[] = [];
  for (const raw of input) {
    const tag = cleanTag(raw);
    if (!isValidTag(tag)) return { invalid: raw };
    const key = tag.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    tags.push(tag);
  }
  if (tags.length > MAX_TAGS) return { tooMany: tags.length };
  return { tags };
}

/** The `shorts.tags` column of a list (comma-joined; a tag holds no comma), null when empty. */
export function joinTags(tags: readonly string[]): string | null {
  return tags.length ? tags.join(',') : null;
}

/**
 * The tags of a text as exports and forms write them: separated by `,` (ours, Shlink's older
 * web client), `|` (Shlink's web client) or `;`, each trimmed, empty ones left out. Not checked
 * (normalizeTags does that).
 */
export function splitTagText(text: string): string[] {
  return text
    .split(/[,|;]/)
    .map((t) => t.trim())
    .filter((t) => t !== '');
}

/** The tags of a `shorts.tags` column. */
export function splitTags(column: string | null | undefined): string[] {
  return column ? column.split(',') : [];
}

/**
 * A short's tags after a bulk edit: `add` appended where its key is new (the short keeps its own
 * spellings), then every tag whose key is in `remove` taken out. May exceed MAX_TAGS (the caller
 * refuses that).
 */
export function mergeTags(
  current: readonly string[],
  add: readonly string[],
  remove: readonly string[],
): string[] {
  const out = [...current];
  const keys = new Set(current.map((t) => t.toLowerCase()));
  for (const t of add) {
    const key = t.toLowerCase();
    if (!keys.has(key)) {
      keys.add(key);
      out.push(t);
    }
  }
  const gone = new Set(remove.map((t) => tagKey(t)));
  return out.filter((t) => !gone.has(t.toLowerCase()));
}
