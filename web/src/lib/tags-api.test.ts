import { describe, expect, it } from 'vitest';
import { ApiError } from '../api/errors';
import { shortFixture, stubApi } from '../test-fixtures';
import {
  bulkRequest,
  forgetTagSuggestions,
  MAX_BULK_IDS,
  problemKey,
  refusedIds,
  shortTags,
  SUGGESTIONS_MAX_AGE_MS,
  tagListQuery,
  tagsApi,
  tagStatisticsUrl,
  tagSuggestions,
} from './tags-api';

const IDS = ['a', 'b', 'c'];

describe('the bulk bar’s requests (POST /api/code/bulk)', () => {
  it('builds one body per action, the ids each once', () => {
    expect(bulkRequest(['a', 'b', 'a'], { kind: 'delete' })).toEqual({
      ids: ['a', 'b'],
      delete: true,
    });
    expect(bulkRequest(IDS, { kind: 'addTags', tags: ['Herbst', 'Sale'] })).toEqual({
      ids: IDS,
      addTags: ['Herbst', 'Sale'],
    });
    expect(bulkRequest(IDS, { kind: 'removeTags', tags: ['Alt'] })).toEqual({
      ids: IDS,
      removeTags: ['Alt'],
    });
    expect(
      bulkRequest(IDS, { kind: 'expireAt', expireAt: new Date('2027-05-12T13:00:00Z') }),
    ).toEqual({ ids: IDS, set: { expireAt: '2027-05-12T13:00:00.000Z' } });
    expect(bulkRequest(IDS, { kind: 'expireAt', expireAt: null })).toEqual({
      ids: IDS,
      set: { expireAt: null },
    });
    expect(bulkRequest(IDS, { kind: 'maxUses', maxUses: 5 })).toEqual({
      ids: IDS,
      set: { maxUses: 5 },
    });
    expect(bulkRequest(IDS, { kind: 'maxUses', maxUses: null })).toEqual({
      ids: IDS,
      set: { maxUses: null },
    });
    expect(bulkRequest(IDS, { kind: 'team', team: 't-1' })).toEqual({
      ids: IDS,
      set: { team: 't-1' },
    });
    expect(bulkRequest(IDS, { kind: 'team', team: null })).toEqual({
      ids: IDS,
      set: { team: null },
    });
  });

  it('refuses what the server would refuse', () => {
    expect(() => bulkRequest([], { kind: 'delete' })).toThrow(RangeError);
    const many = Array.from({ length: MAX_BULK_IDS + 1 }, (_, i) => `id${i}`);
    expect(() => bulkRequest(many, { kind: 'delete' })).toThrow(RangeError);
    expect(() => bulkRequest(many.slice(1), { kind: 'delete' })).not.toThrow();
    expect(() => bulkRequest(IDS, { kind: 'addTags', tags: [] })).toThrow(RangeError);
    const eleven = Array.from({ length: 11 }, (_, i) => `t${i}`);
    expect(() => bulkRequest(IDS, { kind: 'addTags', tags: eleven })).toThrow(RangeError);
    expect(() => bulkRequest(IDS, { kind: 'maxUses', maxUses: 0 })).toThrow(RangeError);
    expect(() => bulkRequest(IDS, { kind: 'maxUses', maxUses: 1.5 })).toThrow(RangeError);
  });

  it('sends one POST with the body, answers changed and deleted', async () => {
    const calls = stubApi({
      'POST /api/code/bulk': { status: 200, body: { changed: ['a'], deleted: [] } },
    });
    const result = await tagsApi.bulk(bulkRequest(['a'], { kind: 'addTags', tags: ['X'] }));
    expect(result).toEqual({ changed: ['a'], deleted: [] });
    expect(calls.map((c) => [c.call, c.json])).toEqual([
      ['POST /api/code/bulk', { ids: ['a'], addTags: ['X'] }],
    ]);
  });
});

describe('reading the answers', () => {
  it('reads the refused ids of a 403 and error keys this client does not know yet', () => {
    const refused = new ApiError(403, { errorKey: 'not_owner', ids: ['b', 7, 'c'] });
    expect(refusedIds(refused)).toEqual(['b', 'c']);
    expect(problemKey(refused)).toBe('not_owner');
    expect(refusedIds(new ApiError(400, { ids: ['x'] }))).toEqual([]);
    expect(refusedIds(new Error('x'))).toEqual([]);
    const tooMany = new ApiError(400, { errorKey: 'too_many_tags' });
    expect(problemKey(tooMany)).toBe('too_many_tags');
    expect(problemKey(new ApiError(500, 'text'))).toBeUndefined();
  });

  it('a short without tags has none', () => {
    expect(shortTags(shortFixture())).toEqual([]);
    expect(shortTags(shortFixture({ tags: null }))).toEqual([]);
    expect(shortTags(shortFixture({ tags: ['Herbst'] }))).toEqual(['Herbst']);
  });

  it('names the list’s tag parameters and the statistics urls', () => {
    expect(tagListQuery([])).toEqual({});
    expect(tagListQuery(['a', 'b'])).toEqual({ tag: ['a', 'b'] });
    const range = {
      from: '2026-01-01T00:00:00.000Z',
      to: '2026-01-31T00:00:00.000Z',
      granularity: 'day' as const,
      tz: 'Europe/Berlin',
    };
    const url = new URL(tagStatisticsUrl('Black Friday', 't-1', range, 'csv'), 'http://x');
    expect(url.pathname).toBe('/api/statistics.csv');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      tag: 'Black Friday',
      team: 't-1',
      ...range,
    });
    expect(tagStatisticsUrl('a', null, range)).toMatch(/^\/api\/statistics\?tag=a&from=/);
    expect(tagStatisticsUrl('a', null, range)).not.toContain('team');
  });
});

describe('the tag input’s suggestions', () => {
  it('asks a space’s tags once a minute, again after a change', async () => {
    forgetTagSuggestions();
    const calls = stubApi({ 'GET /api/tags': { status: 200, body: [{ tag: 'A', count: 1 }] } });
    const now = 1_000_000;
    expect(await tagSuggestions(null, now)).toEqual([{ tag: 'A', count: 1 }]);
    await tagSuggestions(null, now + 1000);
    expect(calls).toHaveLength(1);
    await tagSuggestions('t-1', now);
    expect(calls).toHaveLength(2);
    await tagSuggestions(null, now + SUGGESTIONS_MAX_AGE_MS);
    expect(calls).toHaveLength(3);
    forgetTagSuggestions();
    await tagSuggestions(null, now + SUGGESTIONS_MAX_AGE_MS);
    expect(calls).toHaveLength(4);
  });

  it('gives none when the call fails, and asks again next time', async () => {
    forgetTagSuggestions();
    const calls = stubApi(() => ({ status: 503, body: { status: 503 } }));
    expect(await tagSuggestions(null)).toEqual([]);
    expect(await tagSuggestions(null)).toEqual([]);
    expect(calls).toHaveLength(2);
  });
});
