import { once } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer, type Server, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import type { ShortDto, ShortHealthDto } from '../../src/shorts/dto/short.dto';
import { LinkHealthJob } from '../../src/link-health/link-health.job';
import { type TestApp, useTestApp, useTestDatabase } from '../support/app';
import { useFakeSite } from '../support/fake-site';
import { useBeforeAll } from '../support/hooks';
import { type LoggedIn, useLogin } from '../support/login';
import { expectProblem } from '../support/problem';
import { createShort, insertShort, insertShorts } from '../support/shorts';
import { TEST_DB_KIND } from '../support/database';

/** A check must not wait the production 5 s for a target that never answers. */
const TIMEOUT_MS = 400;
const DAY_MS = 24 * 60 * 60 * 1000;

const ENV = {
  AUTH_DEV_LOGIN: 'true',
  ADMIN_USERS: 'dev:admin',
  METADATA_ALLOW_LOOPBACK: 'true',
  HEALTH_CHECK_TIMEOUT_MS: String(TIMEOUT_MS),
  // Nothing here is about the database's timeout: under a clean-clone CI run's load the sweep's
  // UPDATE once outwaited the default 2 s on MariaDB (Query inactivity timeout) and failed the test.
  DB_TIMEOUT_MS: '10000',
};

const status =
  (code: number, headers: Record<string, string> = {}) =>
  (_req: IncomingMessage, res: ServerResponse) =>
    void res.writeHead(code, headers).end(code === 200 ? 'hello' : '');

/** The fake targets: one path per kind of answer. `/flaky` answers `flaky.status`. */
function targetRoutes(flaky: { status: number }) {
  return {
    '/ok': status(200),
    '/gone': status(404),
    '/error': status(500),
    '/unauthorized': status(401),
    '/forbidden': status(403),
    '/limited': status(429),
    '/loop': status(302, { location: '/loop' }),
    '/redirect-ok': status(301, { location: '/ok' }),
    // Answers HEAD with 405 and GET with 200.
    '/no-head': (req: IncomingMessage, res: ServerResponse) =>
      void (req.method === 'HEAD' ? res.writeHead(405).end() : res.writeHead(200).end('hi')),
    // Takes the request and never answers (the fake site destroys the socket when it closes).
    '/silent': () => undefined,
    '/flaky': (_req: IncomingMessage, res: ServerResponse) =>
      void res.writeHead(flaky.status).end(),
  };
}

/** A TCP server that closes every connection it accepts, before any answer. */
function useClosingServer(): { port: number } {
  return useBeforeAll(
    'the closing server',
    async () => {
      const sockets = new Set<Socket>();
      const server: Server = createServer((s) => s.destroy());
      server.on('connection', (s) => sockets.add(s));
      server.listen(0, '127.0.0.1');
      await once(server, 'listening');
      return { port: (server.address() as { port: number }).port, server };
    },
    ({ server }) => new Promise<void>((r) => server.close(() => r())),
  );
}

const checkNow = (who: Pick<LoggedIn, 'fetch'>, id: string) =>
  who.fetch(`/api/code/${id}/health`, { method: 'POST' });

async function checked(who: LoggedIn, id: string): Promise<ShortHealthDto> {
  const res = await checkNow(who, id);
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as ShortHealthDto;
}

/** The health columns of a short, straight from the database. */
async function healthRow(t: TestApp, id: string) {
  const [row] = await t.query<Array<{ health_state: string | null; health_failures: number }>>(
    'SELECT health_state, health_failures FROM shorts WHERE id = ?',
    [id],
  );
  return { state: row.health_state, failures: Number(row.health_failures) };
}

describe('link health: checking a short now', () => {
  const flaky = { status: 404 };
  const site = useFakeSite(() => targetRoutes(flaky));
  const closing = useClosingServer();
  const t = useTestApp(ENV);
  const alice = useLogin(t, 'alice');
  const bob = useLogin(t, 'bob');
  const admin = useLogin(t, 'admin');

  const aliceShort = async (path: string) =>
    (await createShort(alice, { url: `${site.url}${path}` })).id;

  it('records the answer of the target: what counts as a failure and what does not', async () => {
    const cases: Array<[string, ShortHealthDto['state'], number | null]> = [
      ['/ok', 'ok', 200],
      ['/redirect-ok', 'ok', 200],
      ['/unauthorized', 'ok', 401],
      ['/forbidden', 'ok', 403],
      ['/limited', 'ok', 429],
      ['/gone', 'unknown', 404],
      ['/error', 'unknown', 500],
      ['/loop', 'unknown', null],
    ];
    for (const [path, state, code] of cases) {
      const before = Date.now();
      const h = await checked(alice, await aliceShort(path));
      expect(h, path).toMatchObject({ state, status: code });
      expect(Date.parse(h.checkedAt!), path).toBeGreaterThanOrEqual(before - 5);
      if (state === 'ok') expect(h.failingSince, path).toBeNull();
      else expect(Date.parse(h.failingSince!), path).toBe(Date.parse(h.checkedAt!));
    }
  });

  it('asks with HEAD, and with GET where HEAD is answered 405', async () => {
    const id = await aliceShort('/no-head');
    const from = site.requests.length;
    expect(await checked(alice, id)).toMatchObject({ state: 'ok', status: 200 });
    expect(site.requests.slice(from)).toEqual(['/no-head', '/no-head']);
    const okFrom = site.requests.length;
    await checked(alice, await aliceShort('/ok'));
    expect(site.requests.slice(okFrom)).toEqual(['/ok']);
  });

  it('no answer counts as a failure: a target that never answers (after the timeout), a closed connection', async () => {
    const silent = await aliceShort('/silent');
    const started = Date.now();
    expect(await checked(alice, silent)).toMatchObject({ state: 'unknown', status: null });
    const took = Date.now() - started;
    expect(took).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
    expect(took).toBeLessThan(TIMEOUT_MS + 3000);
    const closed = (await createShort(alice, { url: `http://127.0.0.1:${closing.port}/x` })).id;
    expect(await checked(alice, closed)).toMatchObject({ state: 'unknown', status: null });
  });

  it('is broken after three failed checks in a row, and ok again after one success', async () => {
    flaky.status = 404;
    const id = await aliceShort('/flaky');
    const first = await checked(alice, id);
    expect(first).toMatchObject({ state: 'unknown', status: 404 });
    expect(await checked(alice, id)).toMatchObject({ state: 'unknown', status: 404 });
    flaky.status = 503;
    const third = await checked(alice, id);
    expect(third).toMatchObject({ state: 'broken', status: 503, failingSince: first.checkedAt });

    const list = async (query: string) => {
      const res = await alice.fetch(`/api/code?size=100${query}`);
      expect(res.status).toBe(200);
      return ((await res.json()) as { content: ShortDto[] }).content;
    };
    const broken = await list('&health=broken');
    expect(broken.map((s) => s.id)).toContain(id);
    expect(broken.every((s) => s.health?.state === 'broken')).toBe(true);
    const all = await list('');
    expect(all.length).toBeGreaterThan(broken.length);
    expect(all.find((s) => s.id === id)?.health).toEqual(third);

    flaky.status = 200;
    expect(await checked(alice, id)).toMatchObject({
      state: 'ok',
      status: 200,
      failingSince: null,
    });
    expect((await list('&health=broken')).map((s) => s.id)).not.toContain(id);
    expect(await healthRow(t, id)).toEqual({ state: 'ok', failures: 0 });
  });

  it('two checks of one short at once both count', async () => {
    const id = await aliceShort('/gone');
    const both = await Promise.all([checkNow(alice, id), checkNow(alice, id)]);
    expect(both.map((r) => r.status)).toEqual([200, 200]);
    expect(await healthRow(t, id)).toEqual({ state: 'unknown', failures: 2 });
    expect(await checked(alice, id)).toMatchObject({ state: 'broken' });
  });

  it('the own list refuses another health filter', async () => {
    const body = await expectProblem(await alice.fetch('/api/code?health=ok'), 400);
    expect(body.fieldErrors).toHaveProperty('health');
  });

  it('the owner and admins see the health in the info call and after an edit; others do not', async () => {
    const { code, id } = await createShort(alice, { url: `${site.url}/ok` });
    await checked(alice, id);
    const info = async (who: Pick<LoggedIn, 'fetch'>) =>
      (await (await who.fetch(`/api/code/${code}?redirect=false`)).json()) as ShortDto;
    expect((await info(alice)).health).toMatchObject({ state: 'ok', status: 200 });
    expect((await info(admin)).health).toMatchObject({ state: 'ok' });
    expect((await info(bob)).health).toBeUndefined();
    expect((await info(t)).health).toBeUndefined();

    // A name changes nothing; a new target starts over (not checked yet).
    const named = await alice.patch(`/api/code/${id}`, { name: 'renamed' });
    expect(((await named.json()) as ShortDto).health).toMatchObject({ state: 'ok', status: 200 });
    const moved = await alice.patch(`/api/code/${id}`, { url: `${site.url}/gone` });
    expect(((await moved.json()) as ShortDto).health).toEqual({
      state: 'unknown',
      status: null,
      checkedAt: null,
      failingSince: null,
    });
  });

  it('only the owner or an admin may check: others 403, anonymous 401, unknown 404', async () => {
    const id = await aliceShort('/ok');
    const from = site.requests.length;
    const other = await expectProblem(await checkNow(bob, id), 403);
    expect(other.errorKey).toBe('not_owner');
    await expectProblem(await checkNow(t, id), 401);
    await expectProblem(await checkNow(alice, '00000000-0000-4000-8000-000000000000'), 404);
    await expectProblem(await checkNow(alice, 'not-a-uuid'), 400);
    // A cross-site POST with the owner's cookie is refused like every state change.
    const cross = await expectProblem(await checkNow(alice.from('https://evil.example'), id), 403);
    expect(cross.errorKey).toBe('cross_site_refused');
    expect(site.requests.length).toBe(from);
    expect(await checked(admin, id)).toMatchObject({ state: 'ok' });
    expect(site.requests.length).toBe(from + 1);
  });

  it("an anonymous short's health is checked by admins only", async () => {
    const { id } = await createShort(t, { url: `${site.url}/ok` });
    await expectProblem(await checkNow(alice, id), 403);
    expect(await checked(admin, id)).toMatchObject({ state: 'ok' });
  });
});

describe('link health: the check-now limit per user (LIMIT_HEALTH_CHECK)', () => {
  const site = useFakeSite({ '/ok': status(200) });
  const t = useTestApp({ ...ENV, LIMIT_HEALTH_CHECK: '2/min' });
  const alice = useLogin(t, 'alice');
  const bob = useLogin(t, 'bob');

  it('refuses the third check in a minute with 429 rate_limited, before the target is asked', async () => {
    const { id } = await createShort(alice, { url: `${site.url}/ok` });
    await checked(alice, id);
    await checked(alice, id);
    const res = await checkNow(alice, id);
    const body = await expectProblem(res, 429);
    expect(body.errorKey).toBe('rate_limited');
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(site.hits('/ok')).toBe(2);
    // Per user: another user's allowance is their own.
    const { id: bobs } = await createShort(bob, { url: `${site.url}/ok` });
    await checked(bob, bobs);
  });
});

describe('link health: the daily sweep', () => {
  const site = useFakeSite(() => targetRoutes({ status: 200 }));
  const t = useTestApp(ENV);
  const alice = useLogin(t, 'alice');
  const admin = useLogin(t, 'admin');
  const job = () => t.app.get(LinkHealthJob);

  it('checks the logged-in shorts that are due, and marks a failing one broken after three sweeps', async () => {
    const gone = (await createShort(alice, { url: `${site.url}/gone` })).id;
    const ok = (await createShort(alice, { url: `${site.url}/ok` })).id;
    const silent = (await createShort(alice, { url: `${site.url}/silent` })).id;
    const anonymous = (await createShort(t, { url: `${site.url}/gone` })).id;
    const expired = (
      await insertShort(t, {
        url: `${site.url}/gone`,
        ownerId: alice.userId,
        expireAt: new Date(Date.now() - 1000),
      })
    ).id;

    const now = Date.now();
    expect(await job().run(new Date(now))).toEqual({ checked: 3, broken: 0 });
    // Checked a moment ago: nothing is due until a day has passed.
    expect(await job().run(new Date(now))).toEqual({ checked: 0, broken: 0 });
    expect(await job().run(new Date(now + DAY_MS + 60_000))).toEqual({ checked: 3, broken: 0 });
    expect(await healthRow(t, gone)).toEqual({ state: 'unknown', failures: 2 });
    expect(await job().run(new Date(now + 2 * DAY_MS + 120_000))).toEqual({
      checked: 3,
      broken: 2,
    });

    expect(await healthRow(t, gone)).toEqual({ state: 'broken', failures: 3 });
    expect(await healthRow(t, silent)).toEqual({ state: 'broken', failures: 3 });
    expect(await healthRow(t, ok)).toEqual({ state: 'ok', failures: 0 });
    // Anonymous and expired shorts are not checked.
    expect(await healthRow(t, anonymous)).toEqual({ state: null, failures: 0 });
    expect(await healthRow(t, expired)).toEqual({ state: null, failures: 0 });
    expect(site.hits('/gone')).toBe(3); // three shorts on /gone: only alice's live one is checked

    const res = await alice.fetch('/api/code?health=broken');
    const ids = ((await res.json()) as { content: ShortDto[] }).content.map((s) => s.id).sort();
    expect(ids).toEqual([gone, silent].sort());

    const metrics = await (await admin.fetch('/management/prometheus')).text();
    expect(metrics).toContain(
      'url_shorter_link_health_checks_total{trigger="sweep",outcome="failed"} 6',
    );
    expect(metrics).toContain(
      'url_shorter_link_health_checks_total{trigger="sweep",outcome="ok"} 3',
    );
  });

  it("reads the due shorts by IDX_shorts_health_due, not every short (a million anonymous ones held SQLite's event loop for seconds)", async () => {
    await insertShorts(t, 300); // anonymous: never due
    const seen: Array<[string, unknown[]]> = [];
    const createRunner = t.ds.createQueryRunner.bind(t.ds);
    t.ds.createQueryRunner = (...args) => {
      const runner = createRunner(...args);
      const query = runner.query.bind(runner) as (...a: unknown[]) => Promise<unknown>;
      runner.query = ((sql: string, params?: unknown[], structured?: boolean) => {
        if (/health_checked_at/.test(sql) && /ORDER BY/.test(sql)) seen.push([sql, params ?? []]);
        return query(sql, params, structured);
      }) as typeof runner.query;
      return runner;
    };
    try {
      await job().run(new Date(Date.now() + 3 * DAY_MS));
    } finally {
      t.ds.createQueryRunner = createRunner;
    }
    expect(seen.length).toBeGreaterThanOrEqual(2); // never checked, checked before the cutoff
    if (TEST_DB_KIND === 'sqlite') {
      for (const [sql, params] of seen) {
        // The driver's own connection: the plan of the statement as the app sent it.
        const db = (
          t.ds.driver as unknown as {
            databaseConnection: { prepare(sql: string): { all(...p: unknown[]): unknown[] } };
          }
        ).databaseConnection;
        const plan = db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as Array<{
          detail: string;
        }>;
        const details = plan.map((p) => p.detail).join(' | ');
        expect(details, sql).toContain('USING INDEX IDX_shorts_health_due');
      }
    } else {
      // The other engines choose by their statistics (a table this small is read whole); the
      // index is there for them to choose.
      const names =
        TEST_DB_KIND === 'postgres'
          ? await t.query<Array<{ name: string }>>(
              "SELECT indexname AS name FROM pg_indexes WHERE tablename = 'shorts'",
            )
          : await t.query<Array<{ name: string }>>(
              "SELECT DISTINCT index_name AS name FROM information_schema.statistics WHERE table_schema = DATABASE() AND table_name = 'shorts'",
            );
      const list = names.map((r) => r.name);
      expect(list).toContain('IDX_shorts_health_due');
      expect(list).not.toContain('IDX_shorts_health_checked_at');
    }
  });

  it('a sweep checks at most its budget; the next one goes on with the rest', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await createShort(alice, { url: `${site.url}/ok` })).id);
    const now = new Date();
    expect(await job().run(now, { budget: 3 })).toEqual({ checked: 3, broken: 0 });
    expect(await job().run(now, { budget: 3 })).toEqual({ checked: 2, broken: 0 });
    expect(await job().run(now, { budget: 3 })).toEqual({ checked: 0, broken: 0 });
    for (const id of ids) expect((await healthRow(t, id)).state).toBe('ok');
  });
});

describe('link health: one sweep at a time when two instances share a database', () => {
  const site = useFakeSite({ '/ok': status(200) });
  const db = useTestDatabase();
  const a = useTestApp(() => ({ ...ENV, ...db.env }));
  const b = useTestApp(() => ({ ...ENV, ...db.env }));
  const alice = useLogin(a, 'alice');

  it('the instance holding the lease sweeps; the other one finds it taken', async () => {
    await createShort(alice, { url: `${site.url}/ok` });
    expect(await a.app.get(LinkHealthJob).run()).toEqual({ checked: 1, broken: 0 });
    expect(await b.app.get(LinkHealthJob).run()).toBeNull();
  });
});
