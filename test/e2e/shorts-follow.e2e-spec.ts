import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { In } from 'typeorm';
import type { LoggerService } from '@nestjs/common';
import { beforeAll, describe, expect, it } from 'vitest';
import { CleanupService } from '../../src/shorts/cleanup.service';
import { MetricsService } from '../../src/metrics/metrics.service';
import { FollowService } from '../../src/follow/follow.service';
import { ShortEntity } from '../../src/shorts/short.entity';
import { BlacklistService } from '../../src/blacklist/blacklist.service';
import { JobLockService } from '../../src/database/job-lock.service';
import { createTestApp, type TestApp, useTestApp } from '../support/app';
import { createCode, insertShort, insertShorts } from '../support/shorts';
import { FollowStore } from '../../src/shorts/follow-store';
import { followReadQuery } from '../../src/shorts/short-follow.repository';
import { engineOf } from '../../src/database/dialect';
import { createTestDatabase, TEST_DB_KIND } from '../support/database';

/** Captures every log line of the app under test. */
class CapturingLogger implements LoggerService {
  readonly lines: string[] = [];
  private add(...args: unknown[]) {
    this.lines.push(
      args.map((a) => (a instanceof Error ? `${a.message} ${a.stack}` : String(a))).join(' '),
    );
  }
  log = (...a: unknown[]) => this.add(...a);
  error = (...a: unknown[]) => this.add(...a);
  warn = (...a: unknown[]) => this.add(...a);
  debug = (...a: unknown[]) => this.add(...a);
  verbose = (...a: unknown[]) => this.add(...a);
  fatal = (...a: unknown[]) => this.add(...a);
}

describe('following shorts', () => {
  const logger = new CapturingLogger();
  const repo = () => t.ds.getRepository(ShortEntity);

  const t = useTestApp({ PASSWORD_MAX_TRIES: '3' }, { logger });

  const create = (body: Record<string, unknown>) => createCode(t, body);

  /** Inserts a short directly (for states the anonymous API cannot create). */
  const insert = (fields: Partial<ShortEntity>) => insertShort(t, fields);

  async function follow(
    path: string,
  ): Promise<{ status: number; location: string | null; res: Response }> {
    const res = await t.fetch(path);
    return { status: res.status, location: res.headers.get('location'), res };
  }

  it('redirects a plain short with 302, no-store and no-referrer, on /api/code/{code} and /s/{code}', async () => {
    const code = await create({ url: 'https://example.com/target?a=1' });
    for (const path of [`/api/code/${code}`, `/s/${code}`, `/s/${code}?foo=bar`]) {
      const { status, location, res } = await follow(path);
      expect(status).toBe(302);
      expect(location).toBe('https://example.com/target?a=1');
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.headers.get('referrer-policy')).toBe('no-referrer');
      expect(res.headers.get('set-cookie')).toBeNull();
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      // An empty body of a stated length, not a chunked one.
      expect(res.headers.get('content-length')).toBe('0');
      expect(res.headers.get('transfer-encoding')).toBeNull();
      expect(await res.text()).toBe('');
    }
  });

  it('counts successful follows (buffered) but not info calls', async () => {
    const code = await create({ url: 'https://example.com/count' });
    await follow(`/s/${code}`);
    await follow(`/api/code/${code}`);
    await t.fetch(`/api/code/${code}?redirect=false`);
    await t.app.get(FollowService).flushUses();
    expect((await repo().findOneByOrFail({ code })).uses).toBe(2);
  });

  it('one batch of use counts adds every count to its own short (many shorts, different counts)', async () => {
    // 1,201 shorts: more ids per count than one UPDATE takes (500), and three different counts.
    const ids = (await insertShorts(t, 1201)).map((s) => s.id);
    const counts = new Map(ids.map((id, i) => [id, i % 3 === 0 ? 1 : i % 3 === 1 ? 2 : 7]));
    await t.app.get(FollowStore).writeUses(randomUUID(), counts);
    const rows = await repo().find({ where: { id: In(ids) }, select: { id: true, uses: true } });
    expect(rows).toHaveLength(1201);
    for (const r of rows) expect(r.uses).toBe(counts.get(r.id));
  });

  it('sends unknown codes to the not-found page', async () => {
    for (const code of ['doesNotExist', 'x'.repeat(100), 'a%2Fb']) {
      const { status, location, res } = await follow(`/api/code/${code}`);
      expect(status).toBe(302);
      expect(location).toMatch(/^\/s\/.+\/not-found$/);
      expect(res.headers.get('cache-control')).toBe('no-store');
    }
    expect((await follow('/s/doesNotExist')).location).toBe('/s/doesNotExist/not-found');
  });

  it('many concurrent follows of distinct uncached codes each get their own answer (batched reads)', async () => {
    // Read together (MariaDB, PostgreSQL: one SELECT … IN per batch), each must get its own row:
    // existing codes, unknown ones, a trailing-space and a case variant of an existing code (PAD
    // SPACE collations match 'pad ' to 'pad'), and a code that exists only on an own domain.
    const shorts = await insertShorts(t, 300, (i) => ({ url: `https://example.com/many/${i}` }));
    const pad = await insert({
      code: `pad${randomUUID().slice(0, 8)}`,
      url: 'https://example.com/pad',
    });
    const elsewhere = await insert({ domain: 'go.batch.example', url: 'https://example.com/else' });
    const limited = await insert({ maxUses: 1, uses: 1, expiredUrl: 'https://example.com/spent' });
    const expected = new Map<string, string>();
    for (const s of shorts) expected.set(`/s/${s.code}`, s.url);
    for (let i = 0; i < 100; i++) {
      const code = `nx${randomUUID().slice(0, 8)}${i}`;
      expected.set(`/s/${code}`, `/s/${code}/not-found`);
    }
    expected.set(`/s/${pad.code}%20`, `/s/${encodeURIComponent(`${pad.code} `)}/not-found`);
    expected.set(`/s/${pad.code.toUpperCase()}`, `/s/${pad.code.toUpperCase()}/not-found`);
    expected.set(`/s/${pad.code}`, 'https://example.com/pad');
    expected.set(`/s/${elsewhere.code}`, `/s/${elsewhere.code}/not-found`);
    expected.set(`/s/${limited.code}`, 'https://example.com/spent');
    const paths = [...expected.keys()].sort(() => Math.random() - 0.5);
    const got = await Promise.all(paths.map(async (p) => [p, (await follow(p)).location] as const));
    expect(new Map(got)).toEqual(expected);
  });

  it('reads each missed code by the unique index (domain, code), also from a table the planner has no statistics of', async () => {
    // PostgreSQL 15 planned the batch as `code IN (…)` on a loaded but not yet analyzed table as a
    // read of every row of the domain (25 ms a batch at 100,000 shorts). A temporary table of the
    // same name stands in front of the real one on this connection: autovacuum never analyzes it.
    // SQLite reads one code at a time (no batch) from the real table.
    const engine = engineOf(t.ds);
    const codes = Array.from({ length: 20 }, (_, i) => `c${i * 997 + 1}`);
    const [sql, params] = followReadQuery(engine, '', codes);
    const runner = t.ds.createQueryRunner();
    await runner.connect();
    try {
      if (engine === 'sqlite') {
        const plan = (await runner.query(`EXPLAIN QUERY PLAN ${sql}`, params)) as Array<{
          detail: string;
        }>;
        expect(plan.map((p) => p.detail)).toEqual([
          'SEARCH shorts USING INDEX UQ_shorts_domain_code (domain=? AND code=?)',
        ]);
        return;
      }
      if (engine === 'postgres') {
        await runner.query('CREATE TEMPORARY TABLE shorts (LIKE public.shorts INCLUDING ALL)');
      } else {
        await runner.query('CREATE TEMPORARY TABLE follow_plan LIKE shorts');
        await runner.query('ALTER TABLE follow_plan RENAME TO shorts');
      }
      const n = 20_000;
      await runner.query(
        engine === 'postgres'
          ? `INSERT INTO shorts (id, code, url, uses, created_at, dangerous) SELECT 'id' || i, 'c' || i, 'https://example.com/', 0, now(), 0 FROM generate_series(1, ${n}) AS i`
          : `INSERT INTO shorts (id, code, url, uses, created_at, dangerous) SELECT CONCAT('id', seq), CONCAT('c', seq), 'https://example.com/', 0, NOW(), 0 FROM seq_1_to_${n}`,
      );
      // The statement finds the temporary table's rows: the plans below are of the table in front.
      const rows = (await runner.query(sql, params)) as Array<{ code: string }>;
      expect(rows.map((r) => r.code).sort()).toEqual([...codes].sort());
      if (engine === 'postgres') {
        const plan = (
          (await runner.query(`EXPLAIN ${sql}`, params)) as Array<{ 'QUERY PLAN': string }>
        ).map((r) => r['QUERY PLAN']);
        // One index lookup per code (a nested loop over the codes), no read of the whole domain.
        expect(plan.join('\n')).not.toMatch(/Seq Scan|Bitmap|Hash/);
        expect(plan.filter((l) => /Index Scan using \S+ on shorts/.test(l))).toHaveLength(1);
        expect(plan.join('\n')).toContain(
          "Index Cond: (((domain)::text = ''::text) AND ((code)::text = c.code))",
        );
      } else {
        const plan = (await runner.query(`EXPLAIN ${sql}`, params)) as Array<{
          table: string;
          type: string;
          key: string | null;
        }>;
        expect(plan).toHaveLength(1);
        expect(plan[0]).toMatchObject({
          table: 'shorts',
          type: 'range',
          key: 'UQ_shorts_domain_code',
        });
      }
    } finally {
      // Never the real table: pg_temp is the session's own schema, TEMPORARY drops only those.
      if (engine === 'postgres') await runner.query('DROP TABLE IF EXISTS pg_temp.shorts');
      if (engine === 'mysql') await runner.query('DROP TEMPORARY TABLE IF EXISTS shorts');
      await runner.release();
    }
  });

  it('codes are case-sensitive', async () => {
    const code = await create({ url: 'https://example.com/case' });
    const flipped = [...code]
      .map((c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()))
      .join('');
    if (flipped !== code)
      expect((await follow(`/s/${flipped}`)).location).toBe(`/s/${flipped}/not-found`);
    const s = await insert({ code: 'CaseCode', url: 'https://example.com/upper' });
    await insert({ code: 'casecode', url: 'https://example.com/lower' });
    expect((await follow(`/s/${s.code}`)).location).toBe('https://example.com/upper');
    expect((await follow('/s/casecode')).location).toBe('https://example.com/lower');
  });

  it('treats expired shorts as not found, for follow and info', async () => {
    const s = await insert({ expireAt: new Date(Date.now() - 1000) });
    expect((await follow(`/s/${s.code}`)).location).toBe(`/s/${s.code}/not-found?reason=expired`);
    const res = await t.fetch(`/api/code/${s.code}?redirect=false`);
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({
      detail: 'Entity URLShort not exists',
      errorKey: 'entity_not_exists',
    });
    expect(await repo().findOneBy({ id: s.id })).not.toBeNull(); // the row stays
  });

  it('tells the not-found page only what the short showed while it lived: expired or used up', async () => {
    const pw = await insert({
      expireAt: new Date(Date.now() - 1000),
      passwordHash: 'not-a-hash',
      dangerous: true,
    });
    const used = await insert({ maxUses: 2, uses: 2, passwordHash: 'not-a-hash' });
    // A flagged short warns first, as it did while it lived (danger wins over every target);
    // accepted, a password makes no difference: nothing beyond the reason is told.
    expect((await follow(`/s/${pw.code}`)).location).toBe(`/s/${pw.code}/potentially-dangerous`);
    for (const path of [
      `/s/${pw.code}?accept_danger=true`,
      `/api/code/${pw.code}?password=x&accept_danger=true`,
    ]) {
      const { status, location, res } = await follow(path);
      expect(status).toBe(302);
      expect(location).toBe(`/s/${pw.code}/not-found?reason=expired`);
      expect(res.headers.get('cache-control')).toBe('no-store');
    }
    expect((await follow(`/s/${used.code}`)).location).toBe(
      `/s/${used.code}/not-found?reason=used-up`,
    );
    // A second follow (answered from the follow cache) tells the same.
    expect((await follow(`/s/${used.code}`)).location).toBe(
      `/s/${used.code}/not-found?reason=used-up`,
    );
    // Codes that never existed (or were deleted) keep the plain location.
    expect((await follow('/s/neverExisted')).location).toBe('/s/neverExisted/not-found');
    // The info call tells none of it.
    for (const code of [pw.code, used.code, 'neverExisted']) {
      const res = await t.fetch(`/api/code/${code}?redirect=false`);
      expect(res.status).toBe(404);
      expect(await res.json()).toMatchObject({ errorKey: 'entity_not_exists' });
    }
  });

  it('treats exhausted shorts as not found and allows exactly maxUses follows', async () => {
    const s = await insert({ maxUses: 3 });
    const locations: (string | null)[] = [];
    for (let i = 0; i < 5; i++) locations.push((await follow(`/s/${s.code}`)).location);
    expect(locations).toEqual([
      s.url,
      s.url,
      s.url,
      `/s/${s.code}/not-found?reason=used-up`,
      `/s/${s.code}/not-found?reason=used-up`,
    ]);
    expect((await repo().findOneByOrFail({ id: s.id })).uses).toBe(3);
    const info = await t.fetch(`/api/code/${s.code}?redirect=false`);
    expect(info.status).toBe(404);
  });

  it('after the last use of a cached maxUses short, bots get not-found too (no preview from the cache)', async () => {
    const s = await insert({ maxUses: 2, name: 'Zweimal' });
    const bot = {
      headers: { 'user-agent': 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)' },
    };
    // The bot's preview caches the short; two people use it up.
    expect((await t.fetch(`/s/${s.code}`, bot)).status).toBe(200);
    expect((await follow(`/s/${s.code}`)).location).toBe(s.url);
    expect((await t.fetch(`/s/${s.code}`, bot)).status).toBe(200);
    expect((await follow(`/s/${s.code}`)).location).toBe(s.url);
    // Well within the cache's 30 s: nothing but not-found, for bots as for people.
    const after = await t.fetch(`/s/${s.code}`, bot);
    expect(after.status).toBe(302);
    expect(after.headers.get('location')).toBe(`/s/${s.code}/not-found?reason=used-up`);
    expect(await after.text()).not.toContain('Zweimal');
    // Another instance's claims are not in this cache either: a use spent elsewhere counts at once.
    const t2 = await insert({ maxUses: 1 });
    expect((await t.fetch(`/s/${t2.code}`, bot)).status).toBe(200);
    await repo().update({ id: t2.id }, { uses: 1 });
    expect((await t.fetch(`/s/${t2.code}`, bot)).headers.get('location')).toBe(
      `/s/${t2.code}/not-found?reason=used-up`,
    );
  });

  it("a bot's preview page speaks the request's language (Accept-Language, else DEFAULT_LANGUAGE de)", async () => {
    const s = await insert({ maxUses: 5, name: 'Vorschau' });
    const ua = 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)';
    const page = async (acceptLanguage?: string) => {
      const headers: Record<string, string> = { 'user-agent': ua };
      if (acceptLanguage) headers['accept-language'] = acceptLanguage;
      const res = await t.fetch(`/s/${s.code}`, { headers });
      expect(res.status).toBe(200);
      expect(res.headers.get('vary')).toContain('Accept-Language');
      return { lang: res.headers.get('content-language'), html: await res.text() };
    };
    const english = await page('en-US,en;q=0.9,de;q=0.8');
    expect(english.lang).toBe('en');
    expect(english.html).toContain('<html lang="en">');
    expect(english.html).toContain('<title>Vorschau</title>');
    expect((await page('de-CH, en;q=0.5')).html).toContain('<html lang="de">');
    expect((await page('fr')).lang).toBe('de');
    expect((await page()).html).toContain('<html lang="de">');
  });

  it('the target of a maxUses short is not revealed by the info or metadata call (owners and admins only)', async () => {
    const s = await insert({ maxUses: 5, url: 'https://example.com/one-time-secret' });
    const info = await t.fetch(`/api/code/${s.code}?redirect=false`);
    expect(info.status).toBe(200);
    const body = (await info.json()) as { url: string | null; maxUses: number | null };
    expect(body).toMatchObject({ url: null, maxUses: 5 });
    const meta = await t.fetch(`/api/code/${s.code}/metadata`);
    expect(meta.status).toBe(403);
    const problem = (await meta.json()) as { errorKey?: string };
    expect(problem.errorKey).toBe('target_hidden');
    expect(JSON.stringify(problem)).not.toContain('one-time-secret');
    // Nothing was claimed by asking.
    expect((await repo().findOneByOrFail({ id: s.id })).uses).toBe(0);
  });

  it('200 concurrent follows of a short with maxUses = 10 redirect to the target exactly 10 times', async () => {
    const s = await insert({ maxUses: 10, url: 'https://example.com/limited' });
    const results = await Promise.all(Array.from({ length: 200 }, () => follow(`/s/${s.code}`)));
    expect(results.every((r) => r.status === 302)).toBe(true);
    expect(results.filter((r) => r.location === 'https://example.com/limited')).toHaveLength(10);
    expect(
      results.filter((r) => r.location === `/s/${s.code}/not-found?reason=used-up`),
    ).toHaveLength(190);
    expect((await repo().findOneByOrFail({ id: s.id })).uses).toBe(10);
  });

  it('sends flagged shorts to the warning page unless accept_danger=true', async () => {
    const s = await insert({
      dangerous: true,
      dangerReason: 'SPAM',
      url: 'https://example.com/danger',
    });
    expect((await follow(`/s/${s.code}`)).location).toBe(`/s/${s.code}/potentially-dangerous`);
    expect((await follow(`/api/code/${s.code}?accept_danger=false`)).location).toBe(
      `/s/${s.code}/potentially-dangerous`,
    );
    expect((await follow(`/s/${s.code}?accept_danger=true`)).location).toBe(
      'https://example.com/danger',
    );
    const info = (await (await t.fetch(`/api/code/${s.code}?redirect=false`)).json()) as {
      dangers: boolean;
    };
    expect(info.dangers).toBe(true);
  });

  it('sends shorts whose target is blacklisted later to the warning page', async () => {
    const code = await create({ url: 'https://later-blocked.example/path' });
    expect((await follow(`/s/${code}`)).location).toBe('https://later-blocked.example/path'); // now cached
    await t.app.get(BlacklistService).add('host', 'LATER-BLOCKED.example.');
    expect((await follow(`/s/${code}`)).location).toBe(`/s/${code}/potentially-dangerous`);
    expect((await follow(`/s/${code}?accept_danger=true`)).location).toBe(
      'https://later-blocked.example/path',
    );
  });

  describe('password-protected shorts', () => {
    const password = 'corr3ct-h0rse-battery-staple';
    let code: string;

    beforeAll(async () => {
      code = await create({ url: 'https://example.com/secret', password });
    });

    it('stores an argon2id hash and never the clear password', async () => {
      const row = await repo().findOneByOrFail({ code });
      expect(row.passwordHash).toMatch(/^\$argon2id\$/);
      const rows = await t.query('SELECT * FROM shorts');
      expect(JSON.stringify(rows)).not.toContain(password);
      if (TEST_DB_KIND === 'sqlite') {
        await t.app.get(FollowService).flushUses();
        await t.query('PRAGMA wal_checkpoint(FULL)');
        const file = readFileSync(t.config.db.file);
        expect(file.includes(Buffer.from(password))).toBe(false);
      }
    });

    it('asks for the password, tells a wrong one and lets the right one through', async () => {
      expect((await follow(`/s/${code}`)).location).toBe(`/s/${code}/password-required`);
      expect((await follow(`/api/code/${code}`)).location).toBe(`/s/${code}/password-required`);
      expect((await follow(`/s/${code}?password=wrong`)).location).toBe(
        `/s/${code}/password-required?wrong=true`,
      );
      expect((await follow(`/s/${code}?password=${encodeURIComponent(password)}`)).location).toBe(
        'https://example.com/secret',
      );
    });

    it('info withholds the url without the password, 403s a wrong one, reveals with the right one', async () => {
      const plain = (await (await t.fetch(`/api/code/${code}?redirect=false`)).json()) as Record<
        string,
        unknown
      >;
      expect(plain).toMatchObject({
        code,
        hasPassword: true,
        url: null,
        owner: null,
        dangers: false,
      });
      expect(JSON.stringify(plain)).not.toContain('argon2');
      const wrong = await t.fetch(`/api/code/${code}?redirect=false&password=nope`);
      expect(wrong.status).toBe(403);
      const right = (await (
        await t.fetch(`/api/code/${code}?redirect=false&password=${encodeURIComponent(password)}`)
      ).json()) as { url: string };
      expect(right.url).toBe('https://example.com/secret');
    });

    it('locks a client out after too many wrong tries, even for the right password', async () => {
      const c = await create({ url: 'https://example.com/locked', password: 'pw-locked' });
      for (let i = 0; i < 3; i++) {
        expect((await follow(`/s/${c}?password=bad${i}`)).location).toBe(
          `/s/${c}/password-required?wrong=true`,
        );
      }
      expect((await follow(`/s/${c}?password=bad`)).location).toBe(
        `/s/${c}/password-required?locked=true`,
      );
      expect((await follow(`/s/${c}?password=pw-locked`)).location).toBe(
        `/s/${c}/password-required?locked=true`,
      );
      expect((await t.fetch(`/api/code/${c}?redirect=false&password=pw-locked`)).status).toBe(429);
    });

    it('logs no clear password', () => {
      expect(logger.lines.join('\n')).not.toContain(password);
      expect(logger.lines.join('\n')).not.toContain('pw-locked');
    });
  });

  it('answers the Short JSON with every documented field', async () => {
    const code = await create({ url: 'https://example.com/json' });
    const res = await t.fetch(`/api/code/${code}?redirect=false`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const body = (await res.json()) as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(
      [
        'code',
        'createdAt',
        'dangers',
        'domain',
        'expireAt',
        'hasPassword',
        'id',
        'maxUses',
        'name',
        'owner',
        'shortUrl',
        'url',
        'preview', // null: none (shown to whoever may see the target)
      ].sort(),
    );
    expect(body).toMatchObject({
      code,
      url: 'https://example.com/json',
      hasPassword: false,
      maxUses: null,
      name: null,
    });
    expect(body.id).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    expect(new Date(body.expireAt as string).getTime()).toBeGreaterThan(Date.now());
  });

  it('refuses anonymous deletes, and 400s an id that is no UUID', async () => {
    const code = await create({ url: 'https://example.com/del' });
    const row = await repo().findOneByOrFail({ code });
    const res = await t.fetch(`/api/code/${row.id}`, { method: 'DELETE' });
    expect(res.status).toBe(401);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(await repo().findOneBy({ id: row.id })).not.toBeNull();
    expect((await t.fetch('/api/code/not-a-uuid', { method: 'DELETE' })).status).toBe(400);
  });

  it('1000 concurrent anonymous creates produce 1000 distinct codes and no 5xx', async () => {
    const statuses: number[] = [];
    const codes: string[] = [];
    for (let batch = 0; batch < 4; batch++) {
      const results = await Promise.all(
        Array.from({ length: 250 }, async (_, i) => {
          const res = await t.post('/api/code', { url: `https://example.com/many/${batch}/${i}` });
          return { status: res.status, body: (await res.json()) as { code: string } };
        }),
      );
      for (const r of results) {
        statuses.push(r.status);
        codes.push(r.body.code);
      }
    }
    expect(statuses.filter((s) => s !== 201)).toEqual([]);
    expect(new Set(codes).size).toBe(1000);
  });

  describe('cleanup of expired anonymous shorts', () => {
    it('removes anonymous shorts expired longer than the retention, keeps the rest', async () => {
      await t.app.get(CleanupService).firstRun; // the run shortly after boot is over
      const day = 86400_000;
      const old = await insert({ expireAt: new Date(Date.now() - 8 * day) });
      const recent = await insert({ expireAt: new Date(Date.now() - 1 * day) });
      const live = await insert({ expireAt: new Date(Date.now() + day) });
      const removed = await t.app.get(CleanupService).run();
      expect(removed).toBeGreaterThanOrEqual(1);
      expect(await repo().findOneBy({ id: old.id })).toBeNull();
      expect(await repo().findOneBy({ id: recent.id })).not.toBeNull();
      expect(await repo().findOneBy({ id: live.id })).not.toBeNull();
    });

    it('runs on one instance at a time (database lease)', async () => {
      const other = new JobLockService(t.ds);
      const mine = t.app.get(JobLockService);
      await mine.release('cleanup-expired-anonymous-shorts');
      expect(await other.tryAcquire('cleanup-expired-anonymous-shorts', 60_000)).toBe(true);
      expect(await t.app.get(CleanupService).run()).toBeNull();
      expect(await mine.tryAcquire('cleanup-expired-anonymous-shorts', 60_000)).toBe(false);
      await other.release('cleanup-expired-anonymous-shorts');
      expect(await t.app.get(CleanupService).run()).not.toBeNull();
    });

    it('runs shortly after boot and once per interval across restarts: a restart within the hour finds the lease taken, a later one runs', async () => {
      const db = await createTestDatabase();
      const day = 86400_000;
      const runs = async (app: TestApp) =>
        (await app.app.get(MetricsService).jobRuns.get()).values.reduce((n, v) => n + v.value, 0);
      try {
        for (const boot of ['first', 'within the interval', 'after the interval'] as const) {
          // A new instance (a new lease holder) each time, as after a restart.
          const app = await createTestApp(db.env);
          try {
            const old = await insertShort(app, {
              createdAt: new Date(Date.now() - 20 * day),
              expireAt: new Date(Date.now() - 10 * day),
            });
            await app.app.get(CleanupService).firstRun;
            const removed =
              (await app.ds.getRepository(ShortEntity).findOneBy({ id: old.id })) === null;
            expect({ boot, ran: await runs(app), removed }).toEqual({
              boot,
              ran: boot === 'within the interval' ? 0 : 1,
              removed: boot !== 'within the interval',
            });
            // The lease stays with the instance that ran, for the interval.
            expect(await app.ds.query('SELECT name FROM job_locks')).toHaveLength(1);
            // The interval passes (the next boot comes after the lease lapsed).
            if (boot === 'within the interval') {
              await app.ds
                .createQueryBuilder()
                .update('job_locks')
                .set({ locked_until: new Date(Date.now() - 1000) })
                .execute();
            }
          } finally {
            await app.close();
          }
        }
      } finally {
        await db.drop();
      }
    });
  });
});
