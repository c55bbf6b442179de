import { hash } from '@node-rs/argon2';
import { describe, expect, it } from 'vitest';
import type { BlacklistService } from '../blacklist/blacklist.service';
import type { CacheBus } from '../common/cache-bus';
import type { AppConfig } from '../config/config';
import type { FailureReporter } from '../failure/failure-reporter';
import type { MetricsService } from '../metrics/metrics.service';
import type { FollowRow, FollowStore } from '../shorts/follow-store';
import { PasswordLimiter } from '../shorts/password-limiter';
import { type FollowInput, FollowService } from './follow.service';

const row = (over: Partial<FollowRow> = {}): FollowRow => ({
  id: 'id-1',
  name: null,
  url: 'https://example.com/target',
  passwordHash: null,
  maxUses: null,
  uses: 0,
  expireAt: null,
  dangerous: false,
  ...over,
});

/** The engine over an in-memory table (the decision rules; the SQL has its e2e tests). */
function engine(rows: Record<string, FollowRow>, blacklisted = false) {
  const handlers = new Map<string, (m: string) => void>();
  const bus = {
    on: (c: string, h: (m: string) => void) => handlers.set(c, h),
    onResync: () => undefined,
    publish: (c: string, m: string) => handlers.get(c)?.(m),
  } as unknown as CacheBus;
  const store = {
    findForFollow: async (_domain: string, code: string) => rows[code] ?? null,
    hasUseLeft: async (id: string) =>
      Object.values(rows).some((r) => r.id === id && (r.maxUses === null || r.uses < r.maxUses)),
    claimUse: async (id: string) => {
      const r = Object.values(rows).find((x) => x.id === id);
      if (!r || (r.maxUses !== null && r.uses >= r.maxUses)) return false;
      r.uses++;
      return true;
    },
    writeUses: async () => true,
  } as unknown as FollowStore;
  const counter = { inc: () => undefined };
  const service = new FollowService(
    store,
    {
      shortCacheSize: 100,
      trustProxy: false,
      stats: {},
      web: { defaultLanguage: 'de' },
    } as unknown as AppConfig,
    { version: 1, isBlacklisted: () => blacklisted } as unknown as BlacklistService,
    bus,
    new PasswordLimiter(2, 60_000),
    { follows: counter, claimsUnknown: counter } as unknown as MetricsService,
    {} as FailureReporter,
  );
  return service;
}

const human: FollowInput = { acceptDanger: false, client: '203.0.113.1' };
const bot: FollowInput = { ...human, bot: true };

describe('FollowService.follow: the decision chain (docs/follow.md)', () => {
  it('unknown, expired and exhausted shorts are not found', async () => {
    const f = engine({
      old: row({ expireAt: new Date(Date.now() - 1) }),
      used: row({ id: 'id-2', maxUses: 1, uses: 1 }),
    });
    expect(await f.follow('nope', human)).toEqual({ kind: 'not-found', reason: 'unknown' });
    expect(await f.follow('old', human)).toEqual({ kind: 'not-found', reason: 'expired' });
    expect(await f.follow('used', human)).toEqual({ kind: 'not-found', reason: 'used-up' });
    // The same answers from the cache (the second follow of each).
    expect(await f.follow('nope', bot)).toEqual({ kind: 'not-found', reason: 'unknown' });
    expect(await f.follow('old', bot)).toEqual({ kind: 'not-found', reason: 'expired' });
    expect(await f.follow('used', bot)).toEqual({ kind: 'not-found', reason: 'used-up' });
  });

  it('danger before password, password before the use; the right password redirects', async () => {
    const passwordHash = await hash('secret');
    const f = engine({
      p: row({ passwordHash }),
      d: row({ id: 'id-2', dangerous: true, passwordHash }),
    });
    expect((await f.follow('d', human)).kind).toBe('dangerous');
    expect((await f.follow('d', { ...human, acceptDanger: true })).kind).toBe('password-required');
    expect((await f.follow('p', { ...human, password: 'wrong' })).kind).toBe('wrong-password');
    expect(await f.follow('p', { ...human, password: 'secret' })).toEqual({
      kind: 'target',
      url: 'https://example.com/target',
      shortId: 'id-1',
    });
    // Two wrong tries in a row lock the client out, and then even the right password is refused.
    await f.follow('p', { ...human, password: 'wrong' });
    await f.follow('p', { ...human, password: 'wrong' });
    expect((await f.follow('p', { ...human, password: 'secret' })).kind).toBe('locked');
    expect(
      (await f.follow('p', { ...human, client: '203.0.113.2', password: 'secret' })).kind,
    ).toBe('target');
  });

  it('a blacklisted target answers as dangerous', async () => {
    expect((await engine({ b: row() }, true).follow('b', human)).kind).toBe('dangerous');
  });

  it('a limited short is followed exactly maxUses times; bots get its preview and never a use', async () => {
    const rows = { once: row({ maxUses: 2, name: 'Einmal' }) };
    const f = engine(rows);
    expect(await f.follow('once', bot)).toEqual({
      kind: 'preview',
      name: 'Einmal',
      shortId: 'id-1',
    });
    expect((await f.follow('once', human)).kind).toBe('target');
    expect((await f.follow('once', bot)).kind).toBe('preview');
    expect((await f.follow('once', human)).kind).toBe('target');
    expect(rows.once.uses).toBe(2);
    // Used up: nothing but not-found, for bots too (no preview from the cache).
    expect(await f.follow('once', human)).toEqual({ kind: 'not-found', reason: 'used-up' });
    expect(await f.follow('once', bot)).toEqual({ kind: 'not-found', reason: 'used-up' });
  });

  it('an unlimited short sends bots to the target too, and counts uses of people only', async () => {
    const f = engine({ open: row() });
    expect((await f.follow('open', bot)).kind).toBe('target');
    expect((await f.follow('open', human)).kind).toBe('target');
    expect(f.pendingUses()).toBe(1);
  });
});
