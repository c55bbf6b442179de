import { describe, expect, it } from 'vitest';
import { type BulkPlan, spaceAfter, tagSpace, tagsAfter } from './short-bulk-tx';
import { tagSpaceOf } from './short-tag.entity';

const plan = (p: Partial<BulkPlan> = {}): BulkPlan => ({
  delete: false,
  add: [],
  remove: [],
  ...p,
});

describe('a bulk edit’s rules per short', () => {
  it('tagSpace is short_tags’ space (tagSpaceOf)', () => {
    for (const s of [
      { ownerId: 'u1', teamId: null },
      { ownerId: 'u1', teamId: 't1' },
      { ownerId: null, teamId: null },
      { ownerId: null, teamId: 't2' },
    ]) {
      expect(tagSpace(s)).toBe(tagSpaceOf(s));
    }
  });

  it('moves: into a team keeps the owner; out of a team goes to the caller; own shorts stay', () => {
    const own = { ownerId: 'u1', teamId: null };
    const team = { ownerId: 'u2', teamId: 't1' };
    expect(spaceAfter(own, plan(), 'me')).toEqual(own);
    expect(spaceAfter(own, plan({ moveTo: { teamId: 't9' } }), 'me')).toEqual({
      ownerId: 'u1',
      teamId: 't9',
    });
    expect(spaceAfter(team, plan({ moveTo: { teamId: null } }), 'me')).toEqual({
      ownerId: 'me',
      teamId: null,
    });
    expect(spaceAfter(own, plan({ moveTo: { teamId: null } }), 'me')).toEqual(own);
  });

  it('tags: added where new (the short’s spelling kept), removed by key, none on anonymous shorts', () => {
    const own = { ownerId: 'u1', teamId: null };
    const p = plan({ add: ['Herbst', 'Sale'], remove: ['alt'] });
    expect(tagsAfter(own, 'herbst,Alt', p, 'me')).toEqual(['herbst', 'Sale']);
    expect(tagsAfter(own, null, p, 'me')).toEqual(['Herbst', 'Sale']);
    expect(tagsAfter({ ownerId: null, teamId: null }, null, p, 'admin')).toEqual([]);
    expect(tagsAfter(own, 'a', plan({ add: ['X'], remove: ['x'] }), 'me')).toEqual(['a']);
  });
});
