import { hash } from '@node-rs/argon2';
import { describe, expect, it } from 'vitest';
import type { BlacklistService } from '../blacklist/blacklist.service';
import type { CacheBus } from '../redis/cache-bus';
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
  ownerId: null,
  teamId: null,
  expiredUrl: null,
  rules: null,
  preview: null,
  ...over,
});

/** The engine over an in-memory table (the decision rules; the SQL has its e2e tests). */
function engine(
  rows: Record<string, FollowRow>,
  blacklisted: boolean | ((url: string) => boolean) = false,
  reads: string[] = [],
  /** Reads answer at once (SQLite's), or fail with this error (once, then answer). */
  reading: { sync?: boolean; failOnce?: Error } = {},
) {
  const isBlacklisted = typeof blacklisted === 'function' ? blacklisted : () => blacklisted;
  const handlers = new Map<string, (m: string) => void>();
  const bus = {
    on: (c: string, h: (m: string) => void) => handlers.set(c, h),
    onResync: () => undefined,
    publish: (c: string, m: string) => handlers.get(c)?.(m),
  } as unknown as CacheBus;
  const store = {
    findForFollow: (_domain: string, code: string) => {
      reads.push(code);
      if (reading.sync) return rows[code] ?? null;
      const failure = reading.failOnce;
      reading.failOnce = undefined;
      // A round trip: the follows below overlap it.
      return new Promise((resolve, reject) =>
        setTimeout(() => (failure ? reject(failure) : resolve(rows[code] ?? null)), 5),
      );
    },
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
    { version: 1, isBlacklisted } as unknown as BlacklistService,
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
  it('concurrent follows of a code not in the cache share one read (a burst is one SELECT)', async () => {
    const reads: string[] = [];
    const f = engine({ hot: row() }, false, reads);
    const results = await Promise.all([
      ...Array.from({ length: 50 }, () => f.follow('hot', human)),
      ...Array.from({ length: 20 }, () => f.follow('gone', human)),
    ]);
    expect(results.slice(0, 50).every((r) => r.kind === 'target')).toBe(true);
    expect(results.slice(50).every((r) => r.kind === 'not-found')).toBe(true);
    expect(reads.sort()).toEqual(['gone', 'hot']);
    // Once answered, the read is not shared any more: a later miss reads again.
    await f.follow('other', human);
    expect(reads).toHaveLength(3);
  });

  it('a read that fails fails the follows that shared it; the next follow reads again', async () => {
    const reads: string[] = [];
    const down = new Error('connect ECONNREFUSED');
    const f = engine({ hot: row() }, false, reads, { failOnce: down });
    const failed = await Promise.allSettled([f.follow('hot', human), f.follow('hot', human)]);
    expect(failed).toEqual([
      { status: 'rejected', reason: down },
      { status: 'rejected', reason: down },
    ]);
    expect(reads).toEqual(['hot']);
    expect(await f.follow('hot', human)).toMatchObject({ kind: 'target' });
    expect(reads).toEqual(['hot', 'hot']);
  });

  it('a read that answers at once (SQLite) gives the answer without a promise, cached as any', () => {
    const reads: string[] = [];
    const f = engine({ plain: row() }, false, reads, { sync: true });
    const first = f.follow('plain', human);
    expect(first).not.toBeInstanceOf(Promise);
    expect(first).toMatchObject({ kind: 'target', url: 'https://example.com/target' });
    expect(f.follow('gone', human)).toEqual({ kind: 'not-found', reason: 'unknown' });
    expect(f.follow('plain', human)).toMatchObject({ kind: 'target' });
    expect(f.follow('gone', human)).toEqual({ kind: 'not-found', reason: 'unknown' });
    expect(reads).toEqual(['plain', 'gone']); // the second of each from the cache
  });

  it('a cached short without password or use limit is answered without a promise; waits are promises', async () => {
    const hashed = await hash('secret');
    const f = engine({
      plain: row(),
      limited: row({ id: 'id-2', maxUses: 5 }),
      locked: row({ id: 'id-3', passwordHash: hashed }),
    });
    // The first follow reads the database: a promise.
    const first = f.follow('plain', human);
    expect(first).toBeInstanceOf(Promise);
    expect((await first).kind).toBe('target');
    // From the cache: the answer itself, for people and bots alike.
    const again = f.follow('plain', human);
    expect(again).not.toBeInstanceOf(Promise);
    expect(again).toMatchObject({ kind: 'target', url: 'https://example.com/target' });
    expect(f.follow('plain', bot)).toMatchObject({ kind: 'target', target: 'default' });
    // A use claim and a password check wait (the database, argon2): promises, with their answers.
    await f.follow('limited', human);
    const claimed = f.follow('limited', human);
    expect(claimed).toBeInstanceOf(Promise);
    expect((await claimed).kind).toBe('target');
    await f.follow('locked', human);
    expect(f.follow('locked', human)).toEqual({ kind: 'password-required' });
    const checked = f.follow('locked', { ...human, password: 'secret' });
    expect(checked).toBeInstanceOf(Promise);
    expect((await checked).kind).toBe('target');
  });

  it('while the statistics ask for room, a follow waits for it before it is decided and observed', async () => {
    const f = engine({ plain: row() }, false, [], { sync: true });
    const heard: string[] = [];
    f.observe((id) => heard.push(id));
    let release!: () => void;
    let room: Promise<void> | undefined = new Promise<void>((r) => (release = r));
    f.useBackpressure(() => room);
    const waiting = f.follow('plain', human);
    expect(waiting).toBeInstanceOf(Promise);
    await new Promise((r) => setImmediate(r));
    expect(heard).toEqual([]); // not decided, not recorded while it waits
    release();
    expect(await waiting).toMatchObject({ kind: 'target', url: 'https://example.com/target' });
    expect(heard).toEqual(['id-1']);
    // With room again, a cached short is answered without a promise as before.
    room = undefined;
    expect(f.follow('plain', human)).toMatchObject({ kind: 'target' });
    expect(heard).toEqual(['id-1', 'id-1']);
  });

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
      owned: false,
      target: 'default',
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
      owned: false,
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

const phone =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const desktop =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';
const visitor = (userAgent: string, over: Partial<FollowInput['visitor']> = {}): FollowInput => ({
  ...human,
  visitor: { userAgent, referer: undefined, address: '203.0.113.1', country: undefined, ...over },
});

describe('FollowService.follow: redirect rules and the expiry fallback', () => {
  const rules = [
    {
      conditions: [
        { type: 'device' as const, value: 'mobile' },
        { type: 'os' as const, value: 'ios' },
      ],
      url: 'https://example.com/ios',
    },
    {
      conditions: [{ type: 'query' as const, value: 'src=mail' }],
      url: 'https://example.com/mail',
    },
  ];

  it('the first rule whose conditions all match chooses the target, else the url', async () => {
    const f = engine({ r: row({ rules }) });
    expect(await f.follow('r', visitor(phone))).toEqual({
      kind: 'target',
      url: 'https://example.com/ios',
      shortId: 'id-1',
      owned: false,
      target: '1',
    });
    expect(
      await f.follow('r', { ...visitor(desktop), query: new URLSearchParams('src=mail') }),
    ).toMatchObject({ url: 'https://example.com/mail', target: '2' });
    expect(await f.follow('r', visitor(desktop))).toMatchObject({
      url: 'https://example.com/target',
      target: 'default',
    });
  });

  it('bots get the url; password and danger come first; a blacklisted rule url is dangerous', async () => {
    const passwordHash = await hash('secret');
    const f = engine(
      {
        r: row({ rules }),
        p: row({ id: 'id-2', rules, passwordHash }),
      },
      (url) => url === 'https://example.com/ios',
    );
    expect(await f.follow('r', { ...visitor(phone), bot: true })).toMatchObject({
      url: 'https://example.com/target',
      target: 'default',
    });
    expect((await f.follow('p', visitor(phone))).kind).toBe('password-required');
    expect((await f.follow('r', visitor(phone))).kind).toBe('dangerous');
    expect(await f.follow('r', { ...visitor(phone), acceptDanger: true })).toMatchObject({
      url: 'https://example.com/ios',
    });
  });

  it('observers hear where a redirect went', async () => {
    const f = engine({ r: row({ rules }) });
    const heard: string[] = [];
    f.observe((_id, _input, target) => heard.push(target));
    await f.follow('r', visitor(phone));
    await f.follow('r', visitor(desktop));
    await f.follow('r', { ...visitor(phone), bot: true });
    expect(heard).toEqual(['1', 'default', 'default']);
  });

  it('observers hear whether a user or a team owns the short (an anonymous one has no webhooks)', async () => {
    const f = engine({
      anon: row(),
      mine: row({ id: 'id-2', ownerId: 'user-1' }),
      ours: row({ id: 'id-3', ownerId: 'user-1', teamId: 'team-1' }),
      theirs: row({ id: 'id-4', teamId: 'team-1' }),
    });
    const heard: Array<[string, boolean]> = [];
    f.observe((id, _input, _target, owned) => heard.push([id, owned]));
    for (const code of ['anon', 'mine', 'ours', 'theirs']) {
      expect(await f.follow(code, human)).toMatchObject({ kind: 'target' });
    }
    await f.follow('mine', bot); // and from the cache, as a bot
    expect(heard).toEqual([
      ['id-1', false],
      ['id-2', true],
      ['id-3', true],
      ['id-4', true],
      ['id-2', true],
    ]);
  });

  it('a rule on the country reads the trusted header, else the lookup', async () => {
    const f = engine({
      c: row({
        rules: [{ conditions: [{ type: 'country', value: 'AT' }], url: 'https://a.example/' }],
      }),
    });
    expect(
      ((await f.follow('c', visitor(desktop, { country: 'at' }))) as { url: string }).url,
    ).toBe('https://a.example/');
    expect(((await f.follow('c', visitor(desktop))) as { url: string }).url).toBe(
      'https://example.com/target',
    );
    f.useCountryLookup((address) => (address === '203.0.113.1' ? 'AT' : undefined));
    expect(((await f.follow('c', visitor(desktop))) as { url: string }).url).toBe(
      'https://a.example/',
    );
  });

  it('expired and used-up shorts go to their expiredUrl (dangerous while it is blacklisted)', async () => {
    const rows = {
      old: row({ expireAt: new Date(Date.now() - 1), expiredUrl: 'https://example.com/over' }),
      once: row({ id: 'id-2', maxUses: 1, expiredUrl: 'https://example.com/over' }),
      bad: row({
        id: 'id-3',
        expireAt: new Date(Date.now() - 1),
        expiredUrl: 'https://bad.example/',
      }),
    };
    const f = engine(rows, (url) => url.startsWith('https://bad.example'));
    const fallback = (reason: string) => ({
      kind: 'fallback',
      url: 'https://example.com/over',
      reason,
    });
    expect(await f.follow('old', human)).toEqual(fallback('expired'));
    expect((await f.follow('once', human)).kind).toBe('target');
    expect(await f.follow('once', human)).toEqual(fallback('used-up'));
    expect(await f.follow('once', bot)).toEqual(fallback('used-up')); // from the cache
    // A blacklisted expiry fallback answers as a blacklisted url does: the warning, then there.
    expect(await f.follow('bad', human)).toEqual({ kind: 'dangerous' });
    expect(await f.follow('bad', bot)).toEqual({ kind: 'dangerous' });
    expect(await f.follow('bad', { ...human, acceptDanger: true })).toEqual({
      kind: 'fallback',
      url: 'https://bad.example/',
      reason: 'expired',
    });
    // Read used up from the table (a fresh engine: nothing cached).
    expect(await engine(rows).follow('once', bot)).toEqual(fallback('used-up'));
  });

  it('danger wins over the expiry: a flagged short warns after it expired or ran out of uses', async () => {
    const over = 'https://example.com/over';
    const rows = {
      old: row({ expireAt: new Date(Date.now() - 1), expiredUrl: over, dangerous: true }),
      bare: row({ id: 'id-2', expireAt: new Date(Date.now() - 1), dangerous: true }),
      spent: row({ id: 'id-3', maxUses: 1, uses: 1, expiredUrl: over, dangerous: true }),
      once: row({ id: 'id-4', maxUses: 1, expiredUrl: over, dangerous: true }),
    };
    const f = engine(rows);
    const accept = { ...human, acceptDanger: true };
    for (const code of ['old', 'spent']) {
      expect(await f.follow(code, human), code).toEqual({ kind: 'dangerous' });
      expect(await f.follow(code, bot), code).toEqual({ kind: 'dangerous' });
    }
    // Accepting the danger leads to the expiry answer, never past it.
    expect(await f.follow('old', accept)).toEqual({
      kind: 'fallback',
      url: over,
      reason: 'expired',
    });
    expect(await f.follow('spent', accept)).toEqual({
      kind: 'fallback',
      url: over,
      reason: 'used-up',
    });
    // Without a fallback the flag still answers first; accepting it leads to the not-found page.
    for (const input of [human, bot]) {
      expect(await f.follow('bare', input)).toEqual({ kind: 'dangerous' });
    }
    expect(await f.follow('bare', accept)).toEqual({ kind: 'not-found', reason: 'expired' });
    // Used up by an accepted follow: the cached "used up" keeps the flag.
    expect((await f.follow('once', accept)).kind).toBe('target');
    expect(await f.follow('once', human)).toEqual({ kind: 'dangerous' });
    expect(await f.follow('once', accept)).toEqual({
      kind: 'fallback',
      url: over,
      reason: 'used-up',
    });
  });

  it('a blacklist verdict on the expiry fallback is kept per blacklist version', async () => {
    const asked: string[] = [];
    const rows = {
      old: row({ expireAt: new Date(Date.now() - 1), expiredUrl: 'https://example.com/over' }),
    };
    const f = engine(rows, (url) => {
      asked.push(url);
      return false;
    });
    for (let i = 0; i < 3; i++) expect((await f.follow('old', human)).kind).toBe('fallback');
    expect(asked.filter((u) => u === 'https://example.com/over')).toHaveLength(1);
  });
});

describe('FollowService.follow: link cards (docs/follow.md, "Link cards")', () => {
  const as = (userAgent: string): FollowInput => ({
    ...bot,
    visitor: { userAgent, address: '203.0.113.1', referer: undefined, country: undefined },
  });
  const SLACK = 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)';
  const GOOGLE = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
  const preview = { title: 'Karte' };

  it('a card crawler on a short with a preview gets its card at once, with the held metadata', () => {
    const f = engine({ c: row({ preview }) }, false, [], { sync: true });
    const peeked: string[] = [];
    f.useMetadataPeek((url) => {
      peeked.push(url);
      return { title: 'Ziel', description: 'Text', image: null };
    });
    const card = f.follow('c', as(SLACK));
    expect(card).not.toBeInstanceOf(Promise);
    expect(card).toEqual({
      kind: 'card',
      preview,
      name: null,
      url: 'https://example.com/target',
      meta: { title: 'Ziel', description: 'Text', image: null },
      shortId: 'id-1',
      owned: false,
    });
    expect(peeked).toEqual(['https://example.com/target']);
    // Other bots and people keep their answers.
    expect(f.follow('c', as(GOOGLE))).toMatchObject({ kind: 'target' });
    expect(f.follow('c', human)).toMatchObject({ kind: 'target' });
  });

  it('a short without a preview never asks: the 302 as before', () => {
    const f = engine({ p: row() }, false, [], { sync: true });
    f.useMetadataPeek(() => {
      throw new Error('never asked');
    });
    expect(f.follow('p', as(SLACK))).toMatchObject({ kind: 'target' });
  });

  it('a short with maxUses: the card without target or metadata, no use; Googlebot the bot preview', async () => {
    const rows = { m: row({ preview, maxUses: 1 }) };
    const f = engine(rows, false, [], { sync: true });
    f.useMetadataPeek(() => ({ title: 'Ziel', description: null, image: null }));
    expect(await f.follow('m', as(SLACK))).toEqual({
      kind: 'card',
      preview,
      name: null,
      url: null,
      shortId: 'id-1',
      owned: false,
    });
    expect(await f.follow('m', as(GOOGLE))).toMatchObject({ kind: 'preview' });
    expect(rows.m.uses).toBe(0);
  });
});
