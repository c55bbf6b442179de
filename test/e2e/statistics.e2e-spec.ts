import { randomUUID } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { FollowService } from '../../src/follow/follow.service';
import { ShortEntity } from '../../src/shorts/short.entity';
import { FollowStore } from '../../src/shorts/follow-store';
import { StatisticsRecorder } from '../../src/statistics/recorder';
import { StatisticsRetention } from '../../src/statistics/statistics-retention';
import { keys, StatsWriter } from '../../src/statistics/stats-writer';
import { StatsWriterThread } from '../../src/statistics/stats-writer-thread';
import { SEP } from '../../src/statistics/traits';
import { engineOf } from '../../src/database/dialect';
import { addUseCounts } from '../../src/shorts/use-counts';
import { useTestApp } from '../support/app';
import { loginAs, useLogin } from '../support/login';
import { createShort, insertShorts } from '../support/shorts';
import { checkResponse } from '../support/openapi';
import { expectProblem } from '../support/problem';

/** Real browser user agents (and what they are). */
export const BROWSERS = [
  {
    ua: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
    browser: 'Chrome',
    os: 'Windows',
    device: 'desktop',
  },
  {
    ua: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14.6; rv:133.0) Gecko/20100101 Firefox/133.0',
    browser: 'Firefox',
    os: 'Mac OS',
    device: 'desktop',
  },
  {
    ua: 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
    browser: 'Mobile Safari',
    os: 'iOS',
    device: 'mobile',
  },
  {
    ua: 'Mozilla/5.0 (Linux; Android 14; SM-X710) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
    browser: 'Chrome',
    os: 'Android',
    device: 'tablet',
  },
] as const;

export const BOTS = [
  'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)',
  'WhatsApp/2.23.20.0',
  'Twitterbot/1.0',
  'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)',
  'Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)',
];

interface Stats {
  from: string;
  to: string;
  granularity: string;
  tz: string;
  total: { visits: number; visitors: number; bots: number };
  series: Array<{ start: string; visits: number; visitors: number; bots: number }>;
  referrers: Array<{ name: string; count: number }>;
  countries: Array<{ name: string; count: number }>;
  browsers: Array<{ name: string; count: number }>;
  os: Array<{ name: string; count: number }>;
  devices: Array<{ name: string; count: number }>;
}

const asMap = (list: Array<{ name: string; count: number }>) =>
  Object.fromEntries(list.map((e) => [e.name, e.count]));

describe('visit statistics', () => {
  const t = useTestApp({
    AUTH_DEV_LOGIN: 'true',
    ADMIN_USERS: 'dev:admin',
    TRUST_PROXY: 'loopback',
    GEO_COUNTRY_HEADER: 'CF-IPCountry',
  });
  const alice = useLogin(t, 'alice');

  const recorder = () => t.app.get(StatisticsRecorder);
  const createOwn = (body: Record<string, unknown> = {}) => createShort(alice, body);
  const stats = async (id: string, query = '') => {
    const res = await alice.fetch(`/api/code/${id}/statistics${query}`);
    expect(res.status, await res.clone().text()).toBe(200);
    return (await res.json()) as Stats;
  };

  it('1,000 follows: exact visits, top lists, countries from header and database, unique visitors', async () => {
    const { code, id } = await createOwn();
    const referrers = [
      undefined,
      'https://www.Google.com/search?q=secret-query',
      'https://news.ycombinator.com/item?id=1',
      'https://t.co/abc',
    ];
    const follows = Array.from({ length: 1000 }, (_, i) => {
      const b = BROWSERS[i % BROWSERS.length];
      const headers: Record<string, string> = { 'user-agent': b.ua };
      const ref = referrers[i % referrers.length];
      if (ref) headers.referer = ref;
      // 40 distinct visitors (address + browser); a fifth of them behind a CDN header.
      const visitor = i % 40;
      headers['x-forwarded-for'] = visitor < 20 ? `193.99.144.${visitor + 1}` : `8.8.8.${visitor}`;
      if (visitor % 5 === 0) headers['cf-ipcountry'] = 'FR';
      return headers;
    });
    for (let i = 0; i < follows.length; i += 50) {
      const answers = await Promise.all(
        follows.slice(i, i + 50).map((headers) => t.fetch(`/s/${code}`, { headers })),
      );
      for (const a of answers) expect(a.status).toBe(302);
    }
    await recorder().flush();
    const s = await stats(
      id,
      '?granularity=hour&from=' + new Date(Date.now() - 86_400_000).toISOString(),
    );
    expect(s.total.visits).toBe(1000);
    expect(s.total.bots).toBe(0);
    // 40 visitors, each with one browser: 40 distinct (address, user agent) pairs.
    expect(s.total.visitors).toBe(40);
    expect(s.series.reduce((n, b) => n + b.visits, 0)).toBe(1000);
    expect(asMap(s.referrers)).toEqual({
      direct: 250,
      'google.com': 250,
      'news.ycombinator.com': 250,
      't.co': 250,
    });
    const countries = asMap(s.countries);
    expect(countries.FR).toBe(200); // the CDN header
    expect(countries.DE).toBe(400); // 193.99.144.0/24 (heise) from the shipped database, minus FR
    expect(countries.US).toBe(400); // 8.8.8.0/24
    expect(asMap(s.browsers)).toEqual({ Chrome: 500, Firefox: 250, 'Mobile Safari': 250 });
    expect(asMap(s.os)).toEqual({ Windows: 250, 'Mac OS': 250, iOS: 250, Android: 250 });
    expect(asMap(s.devices)).toEqual({ desktop: 500, mobile: 250, tablet: 250 });
    const admin = await loginAs(t, 'admin');
    const metrics = await (await admin.fetch('/management/prometheus')).text();
    expect(metrics).toMatch(/^url_shorter_visits_total \d+/m);
  });

  it('bots are counted apart; on a maxUses short they get a preview and never claim the use', async () => {
    const { code, id } = await createOwn({ maxUses: 1, name: 'Einmal-Link' });
    const botFollows = [
      ...BOTS.flatMap((ua) => [ua, ua, ua]).map((ua) =>
        t.fetch(`/s/${code}`, { headers: { 'user-agent': ua } }),
      ),
      t.fetch(`/s/${code}`, { headers: { 'user-agent': '' } }),
      t.fetch(`/s/${code}`, { method: 'HEAD', headers: { 'user-agent': BROWSERS[0].ua } }),
      t.fetch(`/api/code/${code}`, { method: 'HEAD' }),
      t.fetch(`/s/${code}`, { headers: { 'user-agent': BOTS[0] } }),
      t.fetch(`/s/${code}`, { headers: { 'user-agent': BOTS[1] } }),
    ];
    const answers = await Promise.all(botFollows);
    expect(answers).toHaveLength(20);
    for (const a of answers) {
      expect(a.status).toBe(200);
      expect(a.headers.get('location')).toBeNull();
      const body = await a.text();
      expect(body).not.toContain('example.com');
    }
    // The preview is a documented answer of both follow routes (the API fuzz found it undocumented).
    for (const [path, template] of [
      [`/s/${code}`, '/s/{code}'],
      [`/api/code/${code}`, '/api/code/{id}'],
    ] as const) {
      const res = await t.fetch(path, { headers: { 'user-agent': BOTS[2] } });
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      await checkResponse('GET', template, res);
    }
    const page = await (await t.fetch(`/s/${code}`, { headers: { 'user-agent': BOTS[2] } })).text();
    expect(page).toContain('<meta name="robots" content="noindex, nofollow">');
    expect(page).toContain('<meta property="og:title" content="Einmal-Link">');
    const rows = await t.query('SELECT uses FROM shorts WHERE code = ?', [code]);
    expect(Number(rows[0].uses)).toBe(0);
    // The first human gets the target; the second finds it used up.
    const human = await t.fetch(`/s/${code}`, { headers: { 'user-agent': BROWSERS[1].ua } });
    expect(human.headers.get('location')).toBe('https://example.com/target');
    const again = await t.fetch(`/s/${code}`, { headers: { 'user-agent': BROWSERS[1].ua } });
    expect(again.headers.get('location')).toBe(`/s/${code}/not-found?reason=used-up`);
    await recorder().flush();
    const s = await stats(id);
    expect(s.total).toEqual({ visits: 1, visitors: 1, bots: 23 }); // 20 + 2 spec checks + 1 page

    // On an unlimited short a bot gets the normal redirect, still counted as a bot.
    const open = await createOwn();
    const bot = await t.fetch(`/s/${open.code}`, { headers: { 'user-agent': BOTS[3] } });
    expect(bot.headers.get('location')).toBe('https://example.com/target');
    await recorder().flush();
    expect((await stats(open.id)).total).toEqual({ visits: 0, visitors: 0, bots: 1 });
  });

  it('2,000 concurrent follows are 2,000 visits after the flush', async () => {
    const { code, id } = await createOwn();
    const answers = await Promise.all(
      Array.from({ length: 2000 }, (_, i) =>
        t.fetch(`/s/${code}`, {
          headers: { 'user-agent': BROWSERS[i % 4].ua, 'x-forwarded-for': `203.0.113.${i % 200}` },
        }),
      ),
    );
    expect(answers.filter((a) => a.status === 302)).toHaveLength(2000);
    await recorder().flush();
    const s = await stats(id);
    expect(s.total.visits).toBe(2000);
    expect(s.total.visitors).toBe(200);
  });

  it("a follow's use travels in the statistics batch: the statistics' flush alone writes both", async () => {
    const { code, id } = await createOwn();
    for (let i = 0; i < 5; i++) {
      const res = await t.fetch(`/s/${code}`, { headers: { 'user-agent': BROWSERS[i % 4].ua } });
      expect(res.status).toBe(302);
    }
    await recorder().flush(); // not FollowService.flushUses: the uses are in this batch
    expect(t.app.get(FollowService).pendingUses()).toBe(0);
    const [row] = await t.query('SELECT uses FROM shorts WHERE id = ?', [id]);
    expect(Number(row.uses)).toBe(5);
    expect((await stats(id)).total.visits).toBe(5);
  });

  it('caps distinct referrers at 100 per day (the rest is `other`); top lists are 10 + other', async () => {
    const { code, id } = await createOwn();
    for (let i = 0; i < 150; i += 50) {
      await Promise.all(
        Array.from({ length: 50 }, (_, j) =>
          t.fetch(`/s/${code}`, {
            headers: { 'user-agent': BROWSERS[0].ua, referer: `https://spam${i + j}.example/x` },
          }),
        ),
      );
      await recorder().flush();
    }
    const stored = await t.query(
      "SELECT COUNT(*) AS n FROM stats_values WHERE short_id = ? AND dim = 'referrer'",
      [id],
    );
    expect(Number(stored[0].n)).toBe(101); // 100 hosts + other
    const s = await stats(id);
    expect(s.referrers).toHaveLength(11);
    expect(s.referrers[10]).toEqual({ name: 'other', count: 140 });
    expect(s.referrers.reduce((n, e) => n + e.count, 0)).toBe(150);
  });

  it('hour, day and month buckets in a time zone, empty ones as zeros; the CSV has the same numbers', async () => {
    const { code, id } = await createOwn();
    await t.fetch(`/s/${code}`, { headers: { 'user-agent': BROWSERS[0].ua } });
    await recorder().flush();
    const to = new Date(Math.ceil(Date.now() / 3_600_000) * 3_600_000);
    const from = new Date(to.getTime() - 24 * 3_600_000);
    const q = `?granularity=hour&from=${from.toISOString()}&to=${to.toISOString()}&tz=Asia/Kolkata`;
    const s = await stats(id, q);
    // Kolkata is UTC+5:30: hour buckets start at half past UTC hours; 24 h span 25 buckets.
    expect(s.series).toHaveLength(25);
    expect(s.series[1].start.slice(14)).toBe('30:00.000Z');
    expect(s.series.reduce((n, b) => n + b.visits, 0)).toBe(1);
    expect(s.series.filter((b) => b.visits === 0)).toHaveLength(24);
    const csv = await (await alice.fetch(`/api/code/${id}/statistics.csv${q}`)).text();
    const lines = csv.trim().split('\r\n');
    expect(lines[0]).toBe('start,visits,visitors,bots');
    expect(lines.slice(1)).toEqual(
      s.series.map((b) => `${b.start},${b.visits},${b.visitors},${b.bots}`),
    );
    const days = await stats(id, '?granularity=day&tz=Europe/Berlin');
    expect(days.series.length).toBeGreaterThanOrEqual(30);
    expect(days.series.every((b) => /T2[23]:00:00\.000Z$/.test(b.start))).toBe(true);
    const months = await stats(
      id,
      `?granularity=month&from=${new Date(Date.now() - 360 * 86_400_000).toISOString()}`,
    );
    expect(months.series.length).toBeGreaterThanOrEqual(12);
    expect(months.total.visits).toBe(1);
  });

  it('rights and bad queries: other 403, anonymous 401, admin 200, 400 with fieldErrors', async () => {
    const { id } = await createOwn();
    const bob = await loginAs(t, 'bob');
    await expectProblem(await bob.fetch(`/api/code/${id}/statistics`), 403);
    await expectProblem(await bob.fetch(`/api/code/${id}/statistics.csv`), 403);
    await expectProblem(await t.fetch(`/api/code/${id}/statistics`), 401);
    await expectProblem(await alice.fetch(`/api/code/${randomUUID()}/statistics`), 404);
    const admin = await loginAs(t, 'admin');
    expect((await admin.fetch(`/api/code/${id}/statistics`)).status).toBe(200);
    const now = Date.now();
    const iso = (ms: number) => new Date(ms).toISOString();
    const bad: Array<[string, string]> = [
      [`?granularity=hour&from=${iso(now - 40 * 86_400_000)}`, 'granularity'],
      [`?from=${iso(now - 500 * 86_400_000)}`, 'to'],
      [`?from=${iso(now)}&to=${iso(now - 1000)}`, 'from'],
      ['?tz=Mars/Olympus', 'tz'],
      ['?granularity=week', 'granularity'],
      ['?from=gestern', 'from'],
    ];
    for (const [query, field] of bad) {
      const p = await expectProblem(await alice.fetch(`/api/code/${id}/statistics${query}`), 400);
      expect(p.fieldErrors?.[field], query).toBeDefined();
    }
  });

  it('statistics outlive expiry but not deletion; the own list has visits and sorts by them', async () => {
    const a = await createOwn();
    const b = await createOwn();
    for (let i = 0; i < 3; i++)
      await t.fetch(`/s/${b.code}`, { headers: { 'user-agent': BROWSERS[0].ua } });
    await t.fetch(`/s/${a.code}`, { headers: { 'user-agent': BROWSERS[0].ua } });
    await recorder().flush();
    const list = (await (await alice.fetch('/api/code?sort=visits,desc&size=100')).json()) as {
      content: Array<{ code: string; visits: number }>;
    };
    const visits = list.content.map((s) => s.visits);
    expect(visits).toEqual([...visits].sort((x, y) => y - x));
    expect(list.content.find((s) => s.code === b.code)?.visits).toBe(3);
    expect(list.content.find((s) => s.code === a.code)?.visits).toBe(1);
    // Read with the page's rows: the same on a later page, and in the order by time.
    const second = (await (
      await alice.fetch(`/api/code?sort=visits,desc&size=1&page=${visits.indexOf(1)}`)
    ).json()) as { content: Array<{ code: string; visits: number }> };
    expect(second.content.map((s) => s.visits)).toEqual([1]);
    const byTime = (await (await alice.fetch('/api/code?size=2')).json()) as {
      content: Array<{ code: string; visits: number }>;
    };
    // (The two newest; created in one millisecond, either may come first.)
    expect(byTime.content.map((s) => [s.code, s.visits]).sort()).toEqual(
      [
        [a.code, 1],
        [b.code, 3],
      ].sort(),
    );
    const exported = (await (await alice.fetch('/api/code/export?format=json')).json()) as Array<{
      code: string;
      visits: number;
    }>;
    expect(exported.find((s) => s.code === b.code)?.visits).toBe(3);
    await t.ds.getRepository(ShortEntity).update(a.id, { expireAt: new Date(Date.now() - 1000) });
    expect((await stats(a.id)).total.visits).toBe(1);
    expect((await alice.delete(`/api/code/${a.id}`)).status).toBe(204);
    for (const table of ['stats_hourly', 'stats_values', 'stats_visitors']) {
      const rows = await t.query(`SELECT COUNT(*) AS n FROM ${table} WHERE short_id = ?`, [a.id]);
      expect(Number(rows[0].n), table).toBe(0);
    }
  });

  it('a short deleted while its follows are buffered: nothing of it is written, nothing else is lost', async () => {
    const kept = await createOwn();
    const gone = await createOwn();
    for (const s of [kept, gone, kept]) {
      await t.fetch(`/s/${s.code}`, { headers: { 'user-agent': BROWSERS[1].ua } });
    }
    // The deletion reaches the recorder as an event (no flush in between), so the writer never
    // needs to ask which shorts exist.
    // (On a SQLite file the writer runs on its own thread and asks there: its count is kept.)
    const spy = vi.spyOn(t.app.get(FollowStore), 'existingIds');
    const writer = recorder().writer;
    const asked = () =>
      writer instanceof StatsWriterThread ? writer.asked : spy.mock.calls.length;
    expect((await alice.delete(`/api/code/${gone.id}`)).status).toBe(204);
    await recorder().flush();
    expect(asked()).toBe(0);
    expect(recorder().pending()).toBe(0);
    expect((await stats(kept.id)).total.visits).toBe(2);
    const rows = await t.query('SELECT COUNT(*) AS n FROM stats_hourly WHERE short_id = ?', [
      gone.id,
    ]);
    expect(Number(rows[0].n)).toBe(0);

    // A deletion whose event never came (another instance without Redis): the batch fails on the
    // foreign key once, the writer asks which shorts exist, and the retry writes the rest.
    const other = await createOwn();
    const silent = await createOwn();
    for (const s of [other, silent]) {
      await t.fetch(`/s/${s.code}`, { headers: { 'user-agent': BROWSERS[1].ua } });
    }
    await t.ds.getRepository(ShortEntity).delete(silent.id);
    await recorder().flush();
    expect(asked()).toBe(1);
    spy.mockRestore();
    expect(recorder().pending()).toBe(0);
    expect((await stats(other.id)).total.visits).toBe(1);
  });

  it('privacy: no address, user agent or referrer path in any column of any table; old salts go', async () => {
    const { code } = await createOwn();
    const secret = { ip: '198.51.100.77', path: 'very-private-path', ua: BROWSERS[2].ua };
    await t.fetch(`/s/${code}`, {
      headers: {
        'user-agent': secret.ua,
        'x-forwarded-for': secret.ip,
        referer: `https://forum.example/${secret.path}?token=abc`,
      },
    });
    await recorder().flush();
    const tables = (
      await t.query(
        t.ds.options.type === 'better-sqlite3'
          ? "SELECT name FROM sqlite_master WHERE type = 'table'"
          : t.ds.options.type === 'postgres'
            ? "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public'"
            : 'SELECT table_name AS name FROM information_schema.tables WHERE table_schema = DATABASE()',
      )
    ).map((r) => String(r.name ?? r.NAME ?? r.TABLE_NAME));
    expect(tables).toContain('stats_values');
    for (const table of tables) {
      const dump = JSON.stringify(await t.query(`SELECT * FROM ${table}`));
      expect(dump, table).not.toContain(secret.ip);
      expect(dump, table).not.toContain(secret.path);
      expect(dump, table).not.toContain('iPhone OS');
    }
    // Salts and hashes older than 48 h are removed by the retention job.
    const oldDay = Math.floor(Date.now() / 86_400_000) - 3;
    await t.query('INSERT INTO stats_salts (day_no, salt) VALUES (?, ?)', [oldDay, 'old-salt']);
    expect(await t.app.get(StatisticsRetention).run()).toBe(true);
    const salts = await t.query('SELECT day_no FROM stats_salts');
    expect(salts.map((r) => Number(r.day_no))).not.toContain(oldDay);
    expect(salts.length).toBeGreaterThan(0); // today's stays
  });

  it('DST at midnight (Chile, Cuba, Azores): a year by day and by month answers 200 with strictly increasing starts', async () => {
    const { code, id } = await createOwn();
    await t.fetch(`/s/${code}`, { headers: { 'user-agent': BROWSERS[0].ua } });
    await recorder().flush();
    // What the web client sends for "12 Monate" in Chile; the old bucket loop never ended here.
    const from = '2025-06-01T04:00:00.000Z';
    const to = '2026-06-01T04:00:00.000Z';
    // Buckets from the one holding `from` up to `to` (04:00 local in the Azores: one more each).
    for (const [tz, days, months] of [
      ['America/Santiago', 365, 12],
      ['America/Havana', 365, 12],
      ['Atlantic/Azores', 366, 13],
    ] as const) {
      for (const granularity of ['day', 'month']) {
        const s = await stats(id, `?from=${from}&to=${to}&granularity=${granularity}&tz=${tz}`);
        const starts = s.series.map((b) => Date.parse(b.start));
        expect(starts.length, `${tz} ${granularity}`).toBe(granularity === 'day' ? days : months);
        expect(starts.every((v, i) => i === 0 || v > starts[i - 1])).toBe(true);
        expect(s.tz).toBe(tz);
      }
    }
    // Chile's DST began on 7 September 2025 at midnight: that day starts at 01:00 (-03), 04:00Z.
    const chile = await stats(id, `?from=${from}&to=${to}&granularity=day&tz=america/santiago`);
    const starts = chile.series.map((b) => b.start);
    expect(starts).toContain('2025-09-06T04:00:00.000Z');
    expect(starts).toContain('2025-09-07T04:00:00.000Z');
    expect(starts).toContain('2025-09-08T03:00:00.000Z');
    const months = await stats(id, `?from=${from}&to=${to}&granularity=month&tz=America/Santiago`);
    expect(months.series[3].start).toBe('2025-09-01T04:00:00.000Z');
    expect(months.series[4].start).toBe('2025-10-01T03:00:00.000Z');
  });

  it('the time zone is matched case-insensitively and answered in its canonical spelling', async () => {
    const { id } = await createOwn();
    expect((await stats(id, '?tz=EUROPE/BERLIN')).tz).toBe('Europe/Berlin');
    expect((await stats(id, '?tz=europe/berlin')).tz).toBe('Europe/Berlin');
    expect((await stats(id)).tz).toBe('Europe/Berlin');
    const p = await expectProblem(
      await alice.fetch(`/api/code/${id}/statistics?tz=Europe/Nowhere`),
      400,
    );
    expect(p.fieldErrors?.tz).toBeDefined();
  });

  it('dates before 1970 (the years 0001–0099 among them) are a 400 with fieldErrors', async () => {
    const { id } = await createOwn();
    for (const [query, fields] of [
      ['?from=0050-01-01T00:00:00Z&to=0050-06-01T00:00:00Z', ['from', 'to']],
      ['?from=0099-12-31T00:00:00Z&to=2026-01-01T00:00:00Z', ['from']],
      ['?from=1969-12-01T00:00:00Z&to=1970-01-02T00:00:00Z', ['from']],
    ] as const) {
      const p = await expectProblem(await alice.fetch(`/api/code/${id}/statistics${query}`), 400);
      expect(Object.keys(p.fieldErrors ?? {}).sort(), query).toEqual([...fields]);
      expect(p.errorKey).toBe('validation_failed');
    }
  });

  it('every statistics error carries an errorKey; validation errors keep their fieldErrors', async () => {
    const { id } = await createOwn();
    const bob = await loginAs(t, 'bob');
    const cases: Array<[Promise<Response>, number, string]> = [
      [t.fetch(`/api/code/${id}/statistics`), 401, 'unauthorized'],
      [bob.fetch(`/api/code/${id}/statistics`), 403, 'not_owner'],
      [bob.fetch(`/api/code/${id}/statistics.csv`), 403, 'not_owner'],
      [alice.fetch(`/api/code/${randomUUID()}/statistics`), 404, 'entity_not_exists'],
      [alice.fetch('/api/code/not-a-uuid/statistics'), 400, 'validation_failed'],
      [alice.fetch(`/api/code/${id}/statistics?granularity=week`), 400, 'validation_failed'],
      [alice.fetch(`/api/code/${id}/statistics.csv?from=gestern`), 400, 'validation_failed'],
    ];
    for (const [res, status, errorKey] of cases) {
      const p = await expectProblem(await res, status);
      expect(p.errorKey, `${status} ${p.detail}`).toBe(errorKey);
      if (status === 400) expect(Object.keys(p.fieldErrors ?? {})).toHaveLength(1);
    }
    const bad = await expectProblem(await alice.fetch('/api/code/not-a-uuid/statistics'), 400);
    expect(bad.fieldErrors).toEqual({ id: 'must be a UUID' });
  });

  it('stored values are cut to 100 characters: a 300-character referrer host, a long browser name', async () => {
    const { code, id } = await createOwn();
    const host = `${'a'.repeat(60)}.${'b'.repeat(60)}.${'c'.repeat(60)}.${'d'.repeat(60)}.${'e'.repeat(60)}`;
    expect(host.length).toBe(304);
    const res = await t.fetch(`/s/${code}`, {
      headers: { 'user-agent': BROWSERS[0].ua, referer: `https://www.${host}/path` },
    });
    expect(res.status).toBe(302);
    await recorder().flush();
    const rows = await t.query(
      "SELECT name FROM stats_values WHERE short_id = ? AND dim = 'referrer'",
      [id],
    );
    expect(rows.map((r) => String(r.name))).toEqual([host.slice(0, 100)]);
    expect(asMap((await stats(id)).referrers)).toEqual({ [host.slice(0, 100)]: 1 });
    // Whatever reaches the writer is cut the same way (browser and OS names come from ua-parser).
    const day = Math.floor(Date.now() / 86_400_000);
    const batch = new Map([[keys.value(id, day, 'browser', `B${'r'.repeat(299)}`), 2]]);
    expect(
      await new StatsWriter(t.ds, async (ids) => new Set(ids)).write(randomUUID(), batch),
    ).toBe(true);
    const browsers = await t.query(
      "SELECT name, hits FROM stats_values WHERE short_id = ? AND dim = 'browser' AND name LIKE 'Br%'",
      [id],
    );
    expect(browsers.map((r) => [String(r.name), Number(r.hits)])).toEqual([
      [`B${'r'.repeat(99)}`, 2],
    ]);
  });

  it('a batch wider than one statement (1,200 shorts, 1,200 visitors): every count exact, repeated visitors not counted again', async () => {
    const shorts = await insertShorts(t, 1_200);
    const hour = Math.floor(Date.now() / 3_600_000);
    const day = Math.floor(hour / 24);
    const batch = () =>
      new Map(
        shorts.flatMap((s, i) => [
          [keys.hourly(s.id, hour, 'visits'), 2] as const,
          [keys.visitor(s.id, hour, `visitor-${i}`), 1] as const,
          [keys.value(s.id, day, 'referrer', `r${i % 7}.example`), 2] as const,
        ]),
      );
    const writer = new StatsWriter(t.ds, async (ids) => new Set(ids));
    expect(await writer.write(randomUUID(), batch())).toBe(true);
    expect(await writer.write(randomUUID(), batch())).toBe(true);
    const ids = shorts.map((s) => s.id);
    const sum = async (sql: string) =>
      Number((await t.query(sql.replace('IDS', ids.map(() => '?').join(', ')), ids))[0].n);
    expect(await sum('SELECT SUM(visits) AS n FROM stats_hourly WHERE short_id IN (IDS)')).toBe(
      4_800,
    );
    // The second batch's visitors were all seen: only the first counts them.
    expect(await sum('SELECT SUM(visitors) AS n FROM stats_hourly WHERE short_id IN (IDS)')).toBe(
      1_200,
    );
    expect(await sum('SELECT COUNT(*) AS n FROM stats_visitors WHERE short_id IN (IDS)')).toBe(
      1_200,
    );
    expect(await sum('SELECT SUM(hits) AS n FROM stats_values WHERE short_id IN (IDS)')).toBe(
      4_800,
    );
    expect(await sum('SELECT COUNT(*) AS n FROM stats_values WHERE short_id IN (IDS)')).toBe(1_200);
  });

  it('a batch of 6,000 value rows (more than one PostgreSQL statement takes) with values an array literal quotes, and use counts of different sizes: all exact, once', async () => {
    // On PostgreSQL the rows go as one array per column (unnest): values with quotes, backslashes,
    // commas, braces, blanks or the word NULL must arrive as they are.
    const odd = ['a"b', 'c\\d', 'e,f', '{g}', 'NULL', ' h ', 'ü€😀'];
    const shorts = await insertShorts(t, 1_000);
    const hour = Math.floor(Date.now() / 3_600_000);
    const day = Math.floor(hour / 24);
    const batch = new Map(
      shorts.flatMap((s, i) => [
        [keys.hourly(s.id, hour, 'visits'), 3] as const,
        [keys.uses(s.id), 1 + (i % 3)] as const,
        [keys.visitor(s.id, hour, `v-${i}`), 1] as const,
        [keys.value(s.id, day, 'referrer', odd[i % odd.length]), 3] as const,
        [keys.value(s.id, day, 'country', 'DE'), 3] as const,
        [keys.value(s.id, day, 'target', `https://x.example/${i}`), 3] as const,
        [
          keys.agent(s.id, day, ['Firefox', `OS ${odd[i % odd.length]}`, 'desktop'].join(SEP)),
          3,
        ] as const,
      ]),
    );
    const writer = new StatsWriter(
      t.ds,
      async (ids) => new Set(ids),
      (runner, counts) => addUseCounts(runner, engineOf(t.ds), counts),
    );
    const id = randomUUID();
    expect(await writer.write(id, batch)).toBe(true);
    expect(await writer.write(id, batch)).toBe(false); // the same batch again: written once
    const ids = shorts.map((s) => s.id);
    const sum = async (sql: string) =>
      Number((await t.query(sql.replace('IDS', ids.map(() => '?').join(', ')), ids))[0].n);
    expect(await sum('SELECT COUNT(*) AS n FROM stats_values WHERE short_id IN (IDS)')).toBe(6_000);
    expect(await sum('SELECT SUM(hits) AS n FROM stats_values WHERE short_id IN (IDS)')).toBe(
      18_000,
    );
    expect(await sum('SELECT SUM(hits) AS n FROM stats_value_spans WHERE short_id IN (IDS)')).toBe(
      18_000,
    );
    expect(await sum('SELECT SUM(visitors) AS n FROM stats_daily WHERE short_id IN (IDS)')).toBe(
      1_000,
    );
    expect(await sum('SELECT SUM(uses) AS n FROM shorts WHERE id IN (IDS)')).toBe(
      shorts.reduce((n, _, i) => n + 1 + (i % 3), 0),
    );
    for (const [i, value] of odd.entries()) {
      const rows = await t.query(
        'SELECT dim, name, hits FROM stats_values WHERE short_id = ? AND dim IN (?, ?) ORDER BY dim',
        [shorts[i].id, 'os', 'referrer'],
      );
      expect(rows.map((r) => [String(r.dim), String(r.name), Number(r.hits)])).toEqual([
        ['os', `OS ${value}`, 3],
        ['referrer', value, 3],
      ]);
    }
  });
});
