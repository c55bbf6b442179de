import { describe, expect, it } from 'vitest';
import { shortBadges } from './short-badges';

const NOW = new Date('2026-05-01T12:00:00Z');
const plain = { expireAt: null, maxUses: null, uses: 0, hasPassword: false, dangers: false };

describe('short badges', () => {
  it('a plain short has none', () => {
    expect(shortBadges(plain, NOW)).toEqual([]);
  });

  it('expired: the expiry lies in the past (not in the future)', () => {
    expect(shortBadges({ ...plain, expireAt: '2026-05-01T11:59:59Z' }, NOW)).toEqual(['expired']);
    expect(shortBadges({ ...plain, expireAt: '2026-05-01T12:00:01Z' }, NOW)).toEqual([]);
  });

  it('used up: the uses reached the limit', () => {
    expect(shortBadges({ ...plain, maxUses: 3, uses: 2 }, NOW)).toEqual([]);
    expect(shortBadges({ ...plain, maxUses: 3, uses: 3 }, NOW)).toEqual(['usedUp']);
    expect(shortBadges({ ...plain, maxUses: 3, uses: 4 }, NOW)).toEqual(['usedUp']);
    // Uses not shown (not the owner): counted as none.
    expect(shortBadges({ ...plain, maxUses: 1, uses: undefined }, NOW)).toEqual([]);
  });

  it('password and dangerous, every badge in list order', () => {
    expect(
      shortBadges(
        {
          expireAt: '2020-01-01T00:00:00Z',
          maxUses: 1,
          uses: 1,
          hasPassword: true,
          dangers: true,
        },
        NOW,
      ),
    ).toEqual(['expired', 'usedUp', 'password', 'dangerous']);
    expect(shortBadges({ ...plain, hasPassword: true }, NOW)).toEqual(['password']);
    expect(shortBadges({ ...plain, dangers: true }, NOW)).toEqual(['dangerous']);
  });

  it('broken: the link health says so (not while unknown or ok, nor without one)', () => {
    const health = (state: 'ok' | 'broken' | 'unknown') => ({
      state,
      status: 404,
      checkedAt: '2026-05-01T11:00:00Z',
      failingSince: '2026-04-29T11:00:00Z',
    });
    expect(shortBadges({ ...plain, health: health('broken') }, NOW)).toEqual(['broken']);
    expect(shortBadges({ ...plain, health: health('unknown') }, NOW)).toEqual([]);
    expect(shortBadges({ ...plain, health: health('ok') }, NOW)).toEqual([]);
    expect(
      shortBadges(
        { ...plain, hasPassword: true, maxUses: 1, uses: 1, health: health('broken') },
        NOW,
      ),
    ).toEqual(['usedUp', 'broken', 'password']);
  });
});
