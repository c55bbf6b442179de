import { cleanTag, isValidTag, MAX_TAGS, tagKey } from '@shared/tags';

/**
 * The own list's tag filter lives in its address: `/shorts?tag=Herbst&tag=Sale` (besides `team`
 * and whatever else the address holds), so a filter can be linked and the back button goes to the
 * filter before. These are the pure steps between the address and the filter.
 */

/** The tags a query string asks for: cleaned, each key once (first spelling), valid ones only, at most MAX_TAGS. */
export function tagsOfSearch(search: string): string[] {
  const out: string[] = [];
  const keys = new Set<string>();
  for (const raw of new URLSearchParams(search).getAll('tag')) {
    const tag = cleanTag(raw);
    const key = tag.toLowerCase();
    if (!isValidTag(tag) || keys.has(key)) continue;
    keys.add(key);
    out.push(tag);
    if (out.length === MAX_TAGS) break;
  }
  return out;
}

/** A query string (with `?`, or '' when empty) with the given tags instead of the ones it had; the rest is kept. */
export function searchWithTags(search: string, tags: readonly string[]): string {
  const params = new URLSearchParams(search);
  params.delete('tag');
  for (const tag of tags) params.append('tag', tag);
  const q = params.toString();
  return q ? `?${q}` : '';
}

/** Whether the filter holds a tag (case-insensitive). */
export function hasTag(tags: readonly string[], tag: string): boolean {
  const key = tagKey(tag);
  return tags.some((t) => tagKey(t) === key);
}

/** The filter with one more tag (unchanged when it holds it already, is full or the tag is not valid). */
export function withTag(tags: readonly string[], tag: string): string[] {
  const clean = cleanTag(tag);
  if (!isValidTag(clean) || hasTag(tags, clean) || tags.length >= MAX_TAGS) return [...tags];
  return [...tags, clean];
}

/** The filter without a tag (case-insensitive). */
export function withoutTag(tags: readonly string[], tag: string): string[] {
  const key = tagKey(tag);
  return tags.filter((t) => tagKey(t) !== key);
}

/** The own list filtered by `tags`, keeping the rest of `search` (the team, …). */
export function shortsHref(search: string, tags: readonly string[]): string {
  return `/shorts${searchWithTags(search, tags)}`;
}

/** The statistics page of a tag, in a team's space when given. */
export function tagStatisticsHref(tag: string, team?: string | null): string {
  const on = team ? `?team=${encodeURIComponent(team)}` : '';
  return `/tags/${encodeURIComponent(tag)}/statistics${on}`;
}

/** A route's `:tag` as written (wouter leaves some escapes; a tag holds no `%` of its own). */
export function tagOfParam(param: string): string {
  try {
    return cleanTag(decodeURIComponent(param));
  } catch {
    return cleanTag(param);
  }
}
