import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { ShortEntity } from '../../src/shorts/short.entity';
import { useTestApp } from '../support/app';
import { useLogin } from '../support/login';
import { expectProblem } from '../support/problem';

const nested = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);

/** Sends raw bytes and returns the raw answer (the connection is closed by the server). */
function raw(url: string, request: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.end(request));
    let answer = '';
    socket.on('data', (d: Buffer) => (answer += d.toString('utf8')));
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
  });
}

function parseRaw(answer: string): { status: number; headers: string; body: string } {
  const [head, body] = answer.split('\r\n\r\n');
  return { status: Number(head.split(' ')[1]), headers: head.toLowerCase(), body };
}

describe('hostile input', () => {
  const shorts = () => t.ds.getRepository(ShortEntity);

  const t = useTestApp({ AUTH_DEV_LOGIN: 'true', ADMIN_USERS: 'dev:admin' });
  const admin = useLogin(t, 'admin');
  const alice = useLogin(t, 'alice');

  describe('JSON nested deeper than 32 levels is a 400 with fieldErrors, never a stack overflow', () => {
    const deep = `{"url":"https://example.com/deep","password":${nested(2000)}}`;

    it('anonymous create', async () => {
      expect(deep.length).toBeLessThan(16 * 1024);
      const before = await shorts().count();
      const p = await expectProblem(await t.post('/api/code', deep), 400);
      expect(p.fieldErrors?.password).toMatch(/nested deeper than 32/);
      expect(await shorts().count()).toBe(before);
    });

    it('a body that is itself nested', async () => {
      const p = await expectProblem(await t.post('/api/code', nested(5000)), 400);
      expect(p.fieldErrors?.body).toMatch(/nested deeper than 32/);
    });

    it('report, admin search and logger level', async () => {
      const res = await alice.post('/api/code', { url: 'https://example.com/reported' });
      const { code } = (await res.json()) as { code: string };
      const report = await alice.fetch(`/api/code/${code}/report`, {
        method: 'POST',
        body: `{"reason":"SPAM","description":${nested(3000)}}`,
      });
      expect((await expectProblem(report, 400)).fieldErrors?.description).toBeTruthy();

      const search = await admin.fetch('/api/admin/entity/shorts/search', {
        method: 'POST',
        body: `{"query_string":{"query":${nested(3000)}}}`,
      });
      expect((await expectProblem(search, 400)).fieldErrors?.query_string).toBeTruthy();

      const logger = await admin.fetch('/management/loggers/http', {
        method: 'POST',
        body: `{"configuredLevel":${nested(3000)}}`,
      });
      expect((await expectProblem(logger, 400)).fieldErrors?.configuredLevel).toBeTruthy();
    });

    it('32 levels are still parsed (and then validated as usual)', async () => {
      const p = await expectProblem(
        await t.post('/api/code', `{"url":"https://example.com/x","password":${nested(31)}}`),
        400,
      );
      expect(p.fieldErrors?.password).toMatch(/string/);
    });
  });

  describe('numbers and dates the database cannot hold are a 400 with fieldErrors', () => {
    it('create: maxUses above the INT range and expireAt past year 9999 in UTC', async () => {
      const before = await shorts().count();
      const tooMany = await alice.post('/api/code', {
        url: 'https://example.com/a',
        maxUses: 2147483648,
      });
      expect((await expectProblem(tooMany, 400)).fieldErrors?.maxUses).toBeTruthy();
      const huge = await alice.post('/api/code', { url: 'https://example.com/a', maxUses: 1e300 });
      expect((await expectProblem(huge, 400)).fieldErrors?.maxUses).toBeTruthy();
      const late = await alice.post('/api/code', {
        url: 'https://example.com/a',
        expireAt: '9999-12-31T23:59:59-14:00',
      });
      expect((await expectProblem(late, 400)).fieldErrors?.expireAt).toMatch(/9999-12-31/);
      expect(await shorts().count()).toBe(before);
    });

    it('create: the largest values that fit are stored exactly', async () => {
      const res = await alice.post('/api/code', {
        url: 'https://example.com/limits',
        maxUses: 2147483647,
        expireAt: '9999-12-31T23:59:59.000Z',
      });
      expect(res.status).toBe(201);
      const { code } = (await res.json()) as { code: string };
      const row = await shorts().findOneByOrFail({ code });
      expect(row.maxUses).toBe(2147483647);
      expect(row.expireAt?.toISOString()).toBe('9999-12-31T23:59:59.000Z');
    });

    it('admin edit: the same bounds', async () => {
      const res = await alice.post('/api/code', { url: 'https://example.com/admin-edit' });
      const { code } = (await res.json()) as { code: string };
      const { id } = await shorts().findOneByOrFail({ code });
      for (const [field, value] of [
        ['maxUses', 2147483648],
        ['expireAt', '9999-12-31T23:59:59-14:00'],
        ['expireAt', '0999-12-31T00:00:00Z'],
      ] as const) {
        const put = await admin.put(`/api/admin/entity/shorts/${id}`, { [field]: value });
        expect((await expectProblem(put, 400)).fieldErrors?.[field]).toBeTruthy();
      }
      const row = await shorts().findOneByOrFail({ id });
      expect(row.maxUses).toBeNull();
      const ok = await admin.put(`/api/admin/entity/shorts/${id}`, {
        maxUses: 2147483647,
        expireAt: '9999-12-31T23:59:59Z',
      });
      expect(ok.status).toBe(200);
    });
  });

  // Found by the API fuzz on PostgreSQL, whose text types cannot hold U+0000: a %00 in a code
  // or a NUL in a JSON string reached the driver and answered 500. NUL is never data, on any engine.
  describe('NUL characters (U+0000) are never data', () => {
    it('a follow of a code with %00 is an unknown code', async () => {
      for (const path of ['/s/%00', '/s/a%00b', '/api/code/%00']) {
        const res = await t.fetch(path);
        expect(res.status, path).toBe(302);
        expect(res.headers.get('location'), path).toMatch(/\/not-found$/);
      }
    });

    it('%00 anywhere in the URL of an API call is a 400 problem', async () => {
      const res = await alice.post('/api/code', { url: 'https://example.com/nul-target' });
      const { code } = (await res.json()) as { code: string };
      for (const path of [
        '/api/code/%00?redirect=false',
        '/api/code/a%00b/metadata',
        '/api/code/%00/qr.svg',
        `/api/code/${code}/metadata?password=%00`,
        '/api/code?search=%00',
      ]) {
        const p = await expectProblem(await alice.fetch(path), 400);
        expect(p.detail, path).toMatch(/NUL/);
      }
      const search = await admin.post('/api/admin/entity/shorts/search', {
        query_string: { query: 'a\u0000b' },
      });
      expect((await expectProblem(search, 400)).fieldErrors?.query_string).toMatch(/NUL/);
    });

    it('a NUL in any string of a JSON body is a 400 with fieldErrors, and nothing is stored', async () => {
      const before = await shorts().count();
      for (const [field, body] of [
        ['name', { url: 'https://example.com/nul', name: 'a\u0000b' }],
        ['url', { url: 'https://example.com/nul\u0000' }],
        ['password', { url: 'https://example.com/nul', password: '\u0000' }],
      ] as const) {
        const p = await expectProblem(await alice.post('/api/code', body), 400);
        expect(p.fieldErrors?.[field], JSON.stringify(body)).toMatch(/NUL/);
      }
      const rows = await expectProblem(
        await alice.post('/api/code/import', {
          rows: [{ url: 'https://example.com/i', name: '\u0000' }],
        }),
        400,
      );
      expect(rows.fieldErrors?.rows).toMatch(/NUL/);
      expect(await shorts().count()).toBe(before);
    });
  });

  describe('requests the HTTP parser refuses get problem+json', () => {
    it('a 20 KB code in the request line is 431', async () => {
      const answer = parseRaw(
        await raw(t.url, `GET /s/${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`),
      );
      expect(answer.status).toBe(431);
      expect(answer.headers).toContain('content-type: application/problem+json');
      const body = JSON.parse(answer.body) as { status: number; detail: string; error: string };
      expect(body.status).toBe(431);
      expect(body.error).toBe(body.detail);
    });

    it('oversized headers are 431, a malformed request is 400', async () => {
      const big = parseRaw(
        await raw(t.url, `GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${'b'.repeat(20_000)}\r\n\r\n`),
      );
      expect(big.status).toBe(431);
      const bad = parseRaw(await raw(t.url, 'GARBAGE\r\n\r\n'));
      expect(bad.status).toBe(400);
      expect(bad.headers).toContain('content-type: application/problem+json');
      expect((JSON.parse(bad.body) as { status: number }).status).toBe(400);
    });
  });
});
