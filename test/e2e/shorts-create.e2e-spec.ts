import { In } from 'typeorm';
import { describe, expect, it, vi } from 'vitest';
import { isUniqueViolation } from '../../src/database/errors';
import {
  ShortInsertRepository,
  SQLITE_INSERT_CHUNKS,
} from '../../src/shorts/short-insert.repository';
import { BlacklistService } from '../../src/blacklist/blacklist.service';
import { ShortEntity } from '../../src/shorts/short.entity';
import { useTestApp } from '../support/app';
import { TEST_DB_KIND } from '../support/database';
import { expectProblem } from '../support/problem';
import { newShort } from '../support/shorts';

describe('creating shorts (anonymous)', () => {
  const count = () => t.ds.getRepository(ShortEntity).count();

  const t = useTestApp({ BASE_URL: 'https://sho.rt' });

  it('answers 201 {code, shortUrl} on /api/code and /api/code/, with a 24 h expiry set by the server', async () => {
    for (const path of ['/api/code', '/api/code/']) {
      const before = Date.now();
      const res = await t.post(path, { url: 'https://example.com/page?x=1#frag' });
      expect(res.status).toBe(201);
      const body = (await res.json()) as { code: string; shortUrl: string };
      expect(Object.keys(body)).toEqual(['code', 'shortUrl']);
      expect(body.code).toMatch(/^[23456789abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ]{7}$/);
      expect(body.shortUrl).toMatch(new RegExp(`^https?://[^/]+/s/${body.code}$`));
      const row = await t.ds.getRepository(ShortEntity).findOneByOrFail({ code: body.code });
      expect(row.url).toBe('https://example.com/page?x=1#frag');
      expect(row.ownerId).toBeNull();
      expect(row.maxUses).toBeNull();
      const lifetime = row.expireAt!.getTime() - before;
      expect(lifetime).toBeGreaterThan(24 * 3600_000 - 60_000);
      expect(lifetime).toBeLessThanOrEqual(24 * 3600_000 + 60_000);
    }
  });

  it('concurrent creates are each stored with their own code (written together)', async () => {
    const before = await count();
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        t.post('/api/code', { url: `https://example.com/c${i}` }),
      ),
    );
    expect(answers.map((r) => r.status)).toEqual(Array(30).fill(201));
    const codes = await Promise.all(
      answers.map(async (r) => ((await r.json()) as { code: string }).code),
    );
    expect(new Set(codes).size).toBe(30);
    expect(await count()).toBe(before + 30);
    const rows = await t.ds.getRepository(ShortEntity).findBy({ code: In(codes) });
    expect(new Map(rows.map((r) => [r.code, r.url]))).toEqual(
      new Map(codes.map((c, i) => [c, `https://example.com/c${i}`])),
    );
  });

  it('a taken code among concurrent inserts fails only its own insert', async () => {
    const shorts = t.app.get(ShortInsertRepository);
    // Every column set: ShortInsertRepository.insert takes its queued multi-row path.
    const row = (code: string): ShortEntity =>
      newShort(t.ds.getRepository(ShortEntity), { code, url: `https://example.com/${code}` });
    await shorts.insert(row('batch-taken'));
    const outcomes = await Promise.allSettled(
      ['batch-a', 'batch-taken', 'batch-b'].map((code) => shorts.insert(row(code))),
    );
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(isUniqueViolation((outcomes[1] as PromiseRejectedResult).reason)).toBe(true);
    const stored = await t.ds
      .getRepository(ShortEntity)
      .findBy({ code: In(['batch-a', 'batch-b']) });
    expect(stored).toHaveLength(2);
  });

  it('inserts that come while a write is under way wait for it and go together in the next INSERT', async () => {
    const shorts = t.app.get(ShortInsertRepository);
    const row = (code: string): ShortEntity =>
      newShort(t.ds.getRepository(ShortEntity), { code, url: `https://example.com/${code}` });
    const manager = t.ds.manager;
    const query = manager.query.bind(manager);
    const inserts: unknown[][] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const spy = vi
      .spyOn(manager, 'query')
      .mockImplementation(async (sql: string, params?: unknown) => {
        if (/^INSERT INTO\s+[`"]?shorts\b/i.test(sql)) {
          inserts.push((params ?? []) as unknown[]);
          if (inserts.length === 1) await gate; // the first write stays under way
        }
        return query(sql, params as unknown[] | undefined);
      });
    try {
      const first = shorts.insert(row('wait-1'));
      await vi.waitFor(() => expect(inserts).toHaveLength(1));
      const later = [shorts.insert(row('wait-2')), shorts.insert(row('wait-3'))];
      for (let i = 0; i < 3; i++) await new Promise((r) => setImmediate(r));
      expect(inserts).toHaveLength(1); // nothing more is written while the first is under way
      release();
      await Promise.all([first, ...later]);
      expect(inserts).toHaveLength(2);
      expect(inserts[1]).toHaveLength(2 * inserts[0].length); // both rows in one statement
    } finally {
      spy.mockRestore();
    }
    const stored = await t.ds
      .getRepository(ShortEntity)
      .findBy({ code: In(['wait-1', 'wait-2', 'wait-3']) });
    expect(stored).toHaveLength(3);
  });

  it('queued creates go in a few row counts on SQLite (its statements are kept), one statement per batch elsewhere', async () => {
    const shorts = t.app.get(ShortInsertRepository);
    const manager = t.ds.manager;
    const query = manager.query.bind(manager);
    const rowsPerInsert: number[] = [];
    const spy = vi
      .spyOn(manager, 'query')
      .mockImplementation(async (sql: string, params?: unknown) => {
        if (/^INSERT INTO\s+[`"]?shorts\b/i.test(sql)) {
          rowsPerInsert.push((sql.match(/\),\s*\(/g) ?? []).length + 1);
        }
        return query(sql, params as unknown[] | undefined);
      });
    const codes: string[] = [];
    try {
      // Batches of 3, 7, 37 and 100 rows: each batch is queued in one turn of the event loop.
      for (const n of [3, 7, 37, 100]) {
        const batch = Array.from({ length: n }, (_, i) => `rows-${n}-${i}`);
        codes.push(...batch);
        await Promise.all(
          batch.map((code) =>
            shorts.insert(
              newShort(t.ds.getRepository(ShortEntity), {
                code,
                url: `https://example.com/${code}`,
              }),
            ),
          ),
        );
      }
    } finally {
      spy.mockRestore();
    }
    expect(rowsPerInsert.reduce((a, b) => a + b, 0)).toBe(147);
    if (TEST_DB_KIND === 'sqlite') {
      for (const rows of rowsPerInsert) expect(SQLITE_INSERT_CHUNKS).toContain(rows);
      expect(rowsPerInsert).toEqual([2, 1, 4, 2, 1, 32, 4, 1, 64, 32, 4]);
    } else {
      expect(rowsPerInsert).toEqual([3, 7, 37, 100]);
    }
    expect(await t.ds.getRepository(ShortEntity).countBy({ code: In(codes) })).toBe(147);
  });

  it('accepts null for the logged-in fields and an empty password as none', async () => {
    const res = await t.post('/api/code', {
      url: 'https://example.com/nulls',
      password: null,
      code: null,
      name: null,
      expireAt: null,
      maxUses: null,
    });
    expect(res.status).toBe(201);
    const { code } = (await res.json()) as { code: string };
    const info = (await (await t.fetch(`/api/code/${code}?redirect=false`)).json()) as {
      hasPassword: boolean;
    };
    expect(info.hasPassword).toBe(false);
  });

  it('refuses the logged-in options from anonymous callers with fieldErrors', async () => {
    const before = await count();
    const res = await t.post('/api/code', {
      url: 'https://example.com/',
      code: 'mycode',
      name: 'n',
      expireAt: new Date(Date.now() + 7 * 86400_000).toISOString(),
      maxUses: 3,
    });
    const p = await expectProblem(res, 400);
    expect(Object.keys(p.fieldErrors ?? {}).sort()).toEqual([
      'code',
      'expireAt',
      'maxUses',
      'name',
    ]);
    expect(await count()).toBe(before);
  });

  const badUrls: Array<[string, string]> = [
    ['javascript', 'javascript:alert(1)'],
    ['data', 'data:text/html,<script>alert(1)</script>'],
    ['file', 'file:///etc/passwd'],
    ['ftp', 'ftp://example.com/file'],
    ['relative', '/relative/path'],
    ['scheme-relative', '//example.com/x'],
    ['no host', 'http://'],
    ['bare word', 'example'],
    ['5000 characters', `https://example.com/${'a'.repeat(4980)}`],
    ['2049 characters', `https://example.com/${'a'.repeat(2049 - 20)}`],
    ['control character', 'https://example.com/a\u0000b'],
    ['newline', 'https://example.com/a\nb'],
    ['space', 'https://exa mple.com/'],
    ['tab', 'https://example.com/\t'],
    ['empty', ''],
    ['this service itself', 'https://sho.rt/s/abc'],
    ['this service, upper case', 'HTTPS://SHO.RT./x'],
    ['userinfo that pretends to be the host', 'https://www.paypal.com@evil.example/login'],
    ['user and password', 'http://user:pass@example.com/'],
  ];
  for (const [label, url] of badUrls) {
    it(`refuses a ${label} URL with 400 and stores nothing`, async () => {
      const before = await count();
      const p = await expectProblem(await t.post('/api/code', { url }), 400);
      expect(p.fieldErrors?.url).toBeTruthy();
      expect(await count()).toBe(before);
    });
  }

  it('refuses this service under another name: the loopback names of a loopback address, the Host it was sent to', async () => {
    const port = new URL(t.url).port;
    for (const url of [
      `http://localhost:${port}/s/abc`,
      `http://127.0.0.1:${port}/`,
      `http://[::1]:${port}/`,
    ]) {
      const p = await expectProblem(await t.post('/api/code', { url }), 400);
      expect(p.fieldErrors?.url).toBe('must not point to this service');
    }
    // Another port on loopback is another service.
    expect((await t.post('/api/code', { url: `http://localhost:1/` })).status).toBe(201);
  });

  it('accepts a URL of exactly 2048 characters', async () => {
    const url = `https://example.com/${'b'.repeat(2048 - 20)}`;
    expect(url.length).toBe(2048);
    expect((await t.post('/api/code', { url })).status).toBe(201);
  });

  const badBodies: Array<[string, string]> = [
    ['wrong type for url', JSON.stringify({ url: 42 })],
    ['wrong type for password', JSON.stringify({ url: 'https://example.com', password: 123 })],
    ['array body', JSON.stringify([{ url: 'https://example.com' }])],
    ['string body', JSON.stringify('https://example.com')],
    ['unknown field', JSON.stringify({ url: 'https://example.com', admin: true })],
    ['prototype pollution', '{"url":"https://example.com","__proto__":{"x":1}}'],
    ['empty object', '{}'],
    ['malformed JSON', '{"url": '],
  ];
  for (const [label, body] of badBodies) {
    it(`answers 400 problem+json for ${label}`, async () => {
      const before = await count();
      await expectProblem(await t.post('/api/code', body), 400);
      expect(await count()).toBe(before);
    });
  }

  it('names the offending fields', async () => {
    const p = await expectProblem(await t.post('/api/code', { url: 42, extra: 1 }), 400);
    expect(Object.keys(p.fieldErrors ?? {}).sort()).toEqual(['extra', 'url']);
    expect(p.detail).toBe('Validation failed');
  });

  it('answers 400 for an empty body', async () => {
    const before = await count();
    const res = await t.fetch('/api/code', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
    });
    const p = await expectProblem(res, 400);
    expect(p.fieldErrors?.url).toBeTruthy();
    expect(await count()).toBe(before);
  });

  it('answers 413 for a huge body', async () => {
    const before = await count();
    const body = JSON.stringify({ url: 'https://example.com/', password: 'x'.repeat(1024 * 1024) });
    await expectProblem(await t.post('/api/code', body), 413);
    expect(await count()).toBe(before);
  });

  it('answers 415 for a form body', async () => {
    const res = await t.fetch('/api/code', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'url=https%3A%2F%2Fexample.com',
    });
    await expectProblem(res, 415);
  });

  it('answers unknown routes with a 404 problem', async () => {
    const p = await expectProblem(await t.fetch('/api/does-not-exist'), 404);
    expect(p.instance).toBe('/api/does-not-exist');
  });

  it('refuses a blacklisted target with the exact detail', async () => {
    await t.app.get(BlacklistService).add('host', 'evil.example');
    const before = await count();
    for (const url of [
      'https://evil.example/',
      'https://sub.EVIL.example./x',
      'http://www.evil.example:80/',
    ]) {
      const p = await expectProblem(await t.post('/api/code', { url }), 400);
      expect(p.detail).toBe('URL is blacklisted');
    }
    await t.app.get(BlacklistService).add('regex', '^https://allowed\\.example/forbidden');
    const p = await expectProblem(
      await t.post('/api/code', { url: 'https://allowed.example/forbidden/1' }),
      400,
    );
    expect(p.detail).toBe('URL is blacklisted');
    expect(await count()).toBe(before);
    expect((await t.post('/api/code', { url: 'https://allowed.example/fine' })).status).toBe(201);
    expect((await t.post('/api/code', { url: 'https://notevil.example/' })).status).toBe(201);
  });

  it('never sets cookies on anonymous calls', async () => {
    const res = await t.post('/api/code', { url: 'https://example.com/cookie' });
    expect(res.headers.get('set-cookie')).toBeNull();
  });
});
