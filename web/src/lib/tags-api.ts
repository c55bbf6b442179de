import { MAX_TAGS } from '@shared/tags';
import { call } from '../api/call';
import type { Schemas, Short } from '../api/client';
import { ApiError } from '../api/errors';

/**
 * The web client's calls of tags, bulk edits and a tag's statistics (CONTRACT "Tags and bulk
 * edits"), in one place; their shapes are the generated schema's (api/schema.d.ts).
 */

/* ---- shapes (the generated schema's) ---- */

/** One entry of `GET /api/tags`: a tag (as first written) and how many of the space's shorts carry it. */
export type TagCount = Schemas['TagCountDto'];

/** A short of the own list or the owner's info call (its `tags` shown to those who may read it). */
export type TaggedShort = Short;

/** What `POST /api/code/bulk` sets on every short (`null` clears expiry and max uses; team null: own space). */
export type BulkSet = Schemas['BulkSetDto'];

/**
 * The body of `POST /api/code/bulk`: changes, or `delete: true` (the generated BulkEditDto, with
 * the two forms the server accepts told apart).
 */
export type BulkRequest =
  | (Pick<Schemas['BulkEditDto'], 'ids' | 'set' | 'addTags' | 'removeTags'> & { delete?: never })
  | { ids: string[]; delete: true };

/** Its answer: the ids changed, or deleted (all or nothing). */
export type BulkResult = Schemas['BulkResultDto'];

/** A short among a tag's top 10 (its own statistics are linked by its code). */
export type TagShortVisits = Schemas['TagShortVisitsDto'];

/** `GET /api/statistics?tag=`: a short's statistics answer, summed over the tag's shorts, plus the top 10. */
export type TagStatisticsAnswer = Schemas['TagStatisticsDto'];

/** The range of a statistics call (lib/statistics.ts rangeQuery). */
export interface StatisticsRange {
  from: string;
  to: string;
  granularity: 'hour' | 'day' | 'month';
  tz: string;
}

/* ---- reading answers ---- */

/** A short's tags (none when the answer has none). */
export function shortTags(s: Short): string[] {
  const tags = (s as TaggedShort).tags;
  return Array.isArray(tags) ? tags : [];
}

/**
 * A problem's errorKey as the server sent it, also a key this client's list does not hold yet
 * (`tag_invalid`, `too_many_tags` come with the server's branch; ApiError.errorKey drops unknown
 * keys).
 */
export function problemKey(err: unknown): string | undefined {
  if (!(err instanceof ApiError)) return undefined;
  if (err.errorKey) return err.errorKey;
  const body = err.body;
  const key =
    body !== null && typeof body === 'object' ? (body as Record<string, unknown>).errorKey : null;
  return typeof key === 'string' ? key : undefined;
}

/** The ids a bulk edit was refused for (403 `not_owner` lists them in `ids`); else none. */
export function refusedIds(err: unknown): string[] {
  if (!(err instanceof ApiError) || err.status !== 403) return [];
  const body = err.body;
  const ids =
    body !== null && typeof body === 'object' ? (body as Record<string, unknown>).ids : null;
  return Array.isArray(ids) ? ids.filter((id): id is string => typeof id === 'string') : [];
}

/* ---- building requests ---- */

/** At most this many ids per bulk call. */
export const MAX_BULK_IDS = 500;

/** One action of the bulk bar. */
export type BulkAction =
  | { kind: 'addTags'; tags: readonly string[] }
  | { kind: 'removeTags'; tags: readonly string[] }
  | { kind: 'expireAt'; expireAt: Date | null }
  | { kind: 'maxUses'; maxUses: number | null }
  | { kind: 'team'; team: string | null }
  | { kind: 'delete' };

/**
 * The body of one bulk call: the selected ids (each once, in order) and the action. Refuses what
 * the server would refuse anyway (no id, more than MAX_BULK_IDS, no tag, more than MAX_TAGS tags,
 * max uses below 1).
 */
export function bulkRequest(ids: readonly string[], action: BulkAction): BulkRequest {
  const unique = [...new Set(ids)];
  if (unique.length === 0 || unique.length > MAX_BULK_IDS)
    throw new RangeError(`a bulk edit takes 1 to ${MAX_BULK_IDS} ids`);
  switch (action.kind) {
    case 'delete':
      return { ids: unique, delete: true };
    case 'addTags':
    case 'removeTags': {
      if (action.tags.length === 0 || action.tags.length > MAX_TAGS)
        throw new RangeError(`1 to ${MAX_TAGS} tags`);
      const tags = [...action.tags];
      return action.kind === 'addTags'
        ? { ids: unique, addTags: tags }
        : { ids: unique, removeTags: tags };
    }
    case 'expireAt':
      return { ids: unique, set: { expireAt: action.expireAt?.toISOString() ?? null } };
    case 'maxUses':
      if (action.maxUses !== null && (!Number.isInteger(action.maxUses) || action.maxUses < 1))
        throw new RangeError('max uses is a whole number from 1');
      return { ids: unique, set: { maxUses: action.maxUses } };
    case 'team':
      return { ids: unique, set: { team: action.team } };
  }
}

/** The own list's query for a tag filter: `tag` repeated (`?tag=a&tag=b`), none without tags. */
export function tagListQuery(tags: readonly string[]): { tag?: string[] } {
  return tags.length > 0 ? { tag: [...tags] } : {};
}

const teamParam = (team: string | null | undefined): Record<string, string> =>
  team ? { team } : {};

/** `/api/statistics?tag=…` (or `.csv`) for a range, in a team's space when given. */
export function tagStatisticsUrl(
  tag: string,
  team: string | null | undefined,
  range: StatisticsRange,
  format: 'json' | 'csv' = 'json',
): string {
  const q = new URLSearchParams({ tag, ...range, ...teamParam(team) });
  return `/api/statistics${format === 'csv' ? '.csv' : ''}?${q.toString()}`;
}

/* ---- the calls ---- */

export const tagsApi = {
  /** The tags of the caller's own space or of a team, most used first. */
  list: (team?: string | null) => {
    const q = new URLSearchParams(teamParam(team)).toString();
    return call<TagCount[]>('GET', `/api/tags${q ? `?${q}` : ''}`);
  },
  /** One bulk edit (all or nothing). */
  bulk: (body: BulkRequest) => call<BulkResult>('POST', '/api/code/bulk', body),
  /** A tag's statistics for a range. */
  statistics: (tag: string, team: string | null | undefined, range: StatisticsRange) =>
    call<TagStatisticsAnswer>('GET', tagStatisticsUrl(tag, team, range)),
};

/* ---- the tag input's suggestions (outside react-query: the create form has none) ---- */

/** Suggestions are asked again after this long (tags change as shorts are edited elsewhere). */
export const SUGGESTIONS_MAX_AGE_MS = 60_000;

const suggestions = new Map<string, { at: number; tags: Promise<TagCount[]> }>();

/** The tags of a space for the input's suggestions: asked once a minute per space, none when that fails. */
export function tagSuggestions(team?: string | null, now = Date.now()): Promise<TagCount[]> {
  const key = team ?? '';
  const found = suggestions.get(key);
  if (found && now - found.at < SUGGESTIONS_MAX_AGE_MS) return found.tags;
  const tags: Promise<TagCount[]> = tagsApi.list(team).catch(() => {
    if (suggestions.get(key)?.tags === tags) suggestions.delete(key);
    return [];
  });
  suggestions.set(key, { at: now, tags });
  return tags;
}

/** After tags changed (a bulk edit, a saved short): the next suggestions are asked anew. */
export function forgetTagSuggestions(): void {
  suggestions.clear();
}
