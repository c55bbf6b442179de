import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { StatisticsRecorder } from '../../src/statistics/recorder';
import { useTestApp } from '../support/app';
import { type LoggedIn, useLogin } from '../support/login';
import { expectProblem } from '../support/problem';
import { createShort, type CreatedShort, insertShorts } from '../support/shorts';

/**
 * Statistics of a tag (CONTRACT "Tags and bulk edits": `GET /api/statistics?tag=`): a short's
 * statistics answer, summed over the caller's shorts (or a team's) that carry the tag, plus the
 * top shorts by visits; and its CSV.
 */

interface Entry {
  name: string;
  count: number;
}
interface Stats {
  from: string;
  to: string;
  granularity: string;
  tz: string;
  total: { visits: number; visitors: number; bots: number };
  series: Array<{ start: string; visits: number; visitors: number; bots: number }>;
  referrers: Entry[];
  countries: Entry[];
  browsers: Entry[];
  os: Entry[];
  devices: Entry[];
  targets: Entry[];
  shorts?: Array<{ id: string; code: string; domain: string | null; visits: number }>;
}

/** Browsers that vary the browser, OS and device lists. */
const BROWSERS = [
  {
    ua: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  },
  { ua: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14.6; rv:133.0) Gecko/20100101 Firefox/133.0' },
  {
    ua: 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
  },
] as const;

const LISTS = ['referrers', 'countries', 'browsers', 'os', 'devices', 'targets'] as const;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** The statistics of several shorts summed as the tag statistics should be (no `other` needed). */
function summed(all: Stats[]): Omit<Stats, 'shorts'> {
  const [first] = all;
  const sumLists = (key: (typeof LISTS)[number]) => {
    const m = new Map<string, number>();
    for (const s of all) for (const e of s[key]) m.set(e.name, (m.get(e.name) ?? 0) + e.count);
    return [...m].map(([name, count]) => ({ name, count }));
  };
  return {
    from: first.from,
    to: first.to,
    granularity: first.granularity,
    tz: first.tz,
    total: {
      visits: all.reduce((n, s) => n + s.total.visits, 0),
      visitors: all.reduce((n, s) => n + s.total.visitors, 0),
      bots: all.reduce((n, s) => n + s.total.bots, 0),
    },
    series: first.series.map((b, i) => ({
      start: b.start,
      visits: all.reduce((n, s) => n + s.series[i].visits, 0),
      visitors: all.reduce((n, s) => n + s.series[i].visitors, 0),
      bots: all.reduce((n, s) => n + s.series[i].bots, 0),
    })),
    ...(Object.fromEntries(LISTS.map((k) => [k, sumLists(k)])) as Record<
      (typeof LISTS)[number],
      Entry[]
    >),
  };
}

/** Lists compared as sets of entries (the order of equal counts may differ). */
const normal = (s: Omit<Stats, 'shorts'>) => ({
  ...s,
  ...Object.fromEntries(
    LISTS.map((k) => [k, [...s[k]].sort((a, b) => a.name.localeCompare(b.name))]),
  ),
});

describe('statistics of a tag (GET /api/statistics?tag=)', () => {
  const t = useTestApp({
    AUTH_DEV_LOGIN: 'true',
    ADMIN_USERS: 'dev:admin',
    TRUST_PROXY: 'loopback',
    GEO_COUNTRY_HEADER: 'CF-IPCountry',
  });
  const alice = useLogin(t, 'alice');
  const bob = useLogin(t, 'bob');
  const carol = useLogin(t, 'carol');
  let team = '';
  /** alice's: three shorts tagged Herbst (one spelled herbst), one untagged, one tagged Winter. */
  let tagged: CreatedShort[] = [];
  let untagged: CreatedShort;
  let winter: CreatedShort;
  /** Herbst elsewhere: bob's own, and the team's. */
  let bobs: CreatedShort;
  let teams: CreatedShort;

  const recorder = () => t.app.get(StatisticsRecorder);
  const tagStats = async (u: LoggedIn, query: string) => {
    const res = await u.fetch(`/api/statistics?${query}`);
    expect(res.status, await res.clone().text()).toBe(200);
    return (await res.json()) as Stats;
  };
  const shortStats = async (u: LoggedIn, id: string, query: string) => {
    const res = await u.fetch(`/api/code/${id}/statistics?${query}`);
    expect(res.status).toBe(200);
    return (await res.json()) as Stats;
  };
  const bulk = async (u: LoggedIn, body: Record<string, unknown>) =>
    expect((await u.post('/api/code/bulk', body)).status).toBe(200);
  /** `n` follows of a short, with browsers, referrers and countries that vary. */
  const follow = async (s: CreatedShort, n: number, salt: number) => {
    for (let i = 0; i < n; i++) {
      const b = BROWSERS[(i + salt) % BROWSERS.length];
      const headers: Record<string, string> = {
        'user-agent': b.ua,
        'x-forwarded-for': `198.51.100.${(i * 7 + salt) % 50}`,
        'cf-ipcountry': ['DE', 'FR', 'US'][(i + salt) % 3],
      };
      if ((i + salt) % 2) headers.referer = `https://news${(i + salt) % 3}.example/a?b=c`;
      expect((await t.fetch(`/s/${s.code}`, { headers })).status).toBe(302);
    }
  };

  /**
   * Rows of earlier days written as the statistics writer writes them (hours, their day's sum,
   * values), so that ranges read daily rows, the hours at their edges and value spans.
   */
  const history = async (id: string, seed: number) => {
    const today = Math.floor(Date.now() / DAY);
    for (let d = today - 40; d < today - 1; d += 3) {
      const hours = Array.from({ length: 24 }, (_, h) => ({
        h: d * 24 + h,
        v: (seed * 7 + d + h * 3) % 5,
        u: (seed + h) % 3,
        b: (h + d) % 2,
      }));
      await t.query(
        `INSERT INTO stats_hourly (short_id, hour_no, visits, visitors, bots) VALUES ${hours.map(() => '(?, ?, ?, ?, ?)').join(', ')}`,
        hours.flatMap((r) => [id, r.h, r.v, r.u, r.b]),
      );
      const sum = (k: 'v' | 'u' | 'b') => hours.reduce((n, r) => n + r[k], 0);
      await t.query(
        'INSERT INTO stats_daily (short_id, day_no, visits, visitors, bots) VALUES (?, ?, ?, ?, ?)',
        [id, d, sum('v'), sum('u'), sum('b')],
      );
      await t.query(
        "INSERT INTO stats_values (short_id, day_no, dim, name, hits) VALUES (?, ?, 'referrer', ?, ?), (?, ?, 'country', ?, ?)",
        [id, d, `old${(seed + d) % 4}.example`, sum('v'), id, d, 'NL', sum('v')],
      );
    }
  };

  beforeAll(async () => {
    const res = await alice.post('/api/teams', { name: 'Marketing' });
    team = ((await res.json()) as { id: string }).id;
    const invite = await alice.post(`/api/teams/${team}/invites`, { role: 'viewer' });
    const { token } = (await invite.json()) as { token: string };
    expect((await bob.post(`/api/invites/${token}`, {})).status).toBe(200);

    tagged = [await createShort(alice), await createShort(alice), await createShort(alice)];
    untagged = await createShort(alice);
    winter = await createShort(alice);
    bobs = await createShort(bob);
    teams = await createShort(alice, { team });
    await bulk(alice, { ids: tagged.slice(0, 2).map((s) => s.id), addTags: ['Herbst'] });
    await bulk(alice, { ids: [tagged[2].id], addTags: ['herbst', 'Sale'] });
    await bulk(alice, { ids: [winter.id], addTags: ['Winter'] });
    await bulk(alice, { ids: [teams.id], addTags: ['Herbst'] });
    await bulk(bob, { ids: [bobs.id], addTags: ['HERBST'] });
    for (const [i, s] of [...tagged, untagged, winter, bobs, teams].entries()) {
      await follow(s, [7, 3, 12, 9, 4, 5, 6][i], i);
      await history(s.id, i);
    }
    await recorder().flush();
  });

  it('equals the sum of its shorts’ statistics for the same range (day, hour in a half-hour zone, month)', async () => {
    const now = Date.now();
    const to = `to=${new Date(now).toISOString()}`;
    const queries = [
      to,
      `granularity=hour&tz=Asia/Kolkata&from=${new Date(now - 2 * DAY).toISOString()}&${to}`,
      `granularity=day&tz=America/New_York&from=${new Date(now - 45 * DAY).toISOString()}&to=${new Date(now - 3 * DAY + 5 * HOUR).toISOString()}`,
      `granularity=month&tz=UTC&from=${new Date(now - 200 * DAY).toISOString()}&${to}`,
    ];
    for (const q of queries) {
      const tag = await tagStats(alice, `tag=herbst&${q}`);
      const each = await Promise.all(tagged.map((s) => shortStats(alice, s.id, q)));
      const { shorts, ...rest } = tag;
      expect(normal(rest), q).toEqual(normal(summed(each)));
      expect(tag.total.visits, q).toBeGreaterThan(0);
      // The top shorts: each with its visits in the range, most first.
      const expected = tagged
        .map((s, i) => ({ id: s.id, code: s.code, domain: null, visits: each[i].total.visits }))
        .sort((a, b) => b.visits - a.visits || (a.id < b.id ? -1 : 1));
      expect(shorts, q).toEqual(expected);
    }
  });

  it('counts only the caller’s space: other users’ and the team’s shorts of the tag never', async () => {
    const to = `to=${new Date().toISOString()}`;
    const mine = await tagStats(alice, `tag=Herbst&${to}`);
    expect(mine.shorts?.map((s) => s.id).sort()).toEqual(tagged.map((s) => s.id).sort());
    const bobsOwn = await tagStats(bob, `tag=herbst&${to}`);
    expect(bobsOwn.shorts).toEqual([
      { id: bobs.id, code: bobs.code, domain: null, visits: bobsOwn.total.visits },
    ]);
    expect(bobsOwn.total).toEqual((await shortStats(bob, bobs.id, to)).total);
    // Another tag and an unknown one.
    const w = await tagStats(alice, `tag=WINTER&${to}`);
    expect(w.total).toEqual((await shortStats(alice, winter.id, to)).total);
    const none = await tagStats(carol, 'tag=herbst');
    expect(none.total).toEqual({ visits: 0, visitors: 0, bots: 0 });
    expect(none.shorts).toEqual([]);
    expect(none.series.every((b) => b.visits === 0)).toBe(true);
    expect(none.referrers).toEqual([]);
  });

  it('a team’s tag for its members (any role), refused to others', async () => {
    const to = `to=${new Date().toISOString()}`;
    const expected = await shortStats(alice, teams.id, to);
    for (const u of [alice, bob]) {
      const s = await tagStats(u, `tag=herbst&team=${team}&${to}`);
      expect(s.total).toEqual(expected.total);
      expect(s.shorts).toEqual([
        { id: teams.id, code: teams.code, domain: null, visits: expected.total.visits },
      ]);
    }
    const p = await expectProblem(
      await carol.fetch(`/api/statistics?tag=herbst&team=${team}`),
      403,
    );
    expect(p.errorKey).toBe('team_forbidden');
    await expectProblem(await carol.fetch(`/api/statistics.csv?tag=herbst&team=${team}`), 403);
    await expectProblem(await alice.fetch(`/api/statistics?tag=herbst&team=${randomUUID()}`), 403);
  });

  it('the CSV has the series of the answer', async () => {
    const q = `tag=herbst&granularity=hour&from=${new Date(Date.now() - DAY).toISOString()}`;
    const s = await tagStats(alice, q);
    const res = await alice.fetch(`/api/statistics.csv?${q}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    const lines = (await res.text()).trim().split('\r\n');
    expect(lines[0]).toBe('start,visits,visitors,bots');
    expect(lines.slice(1)).toEqual(
      s.series.map((b) => `${b.start},${b.visits},${b.visitors},${b.bots}`),
    );
    expect(s.series.reduce((n, b) => n + b.visits, 0)).toBe(s.total.visits);
  });

  it('the top list holds 10 shorts, most visits first, filled up with shorts without visits', async () => {
    const many: CreatedShort[] = [];
    for (let i = 0; i < 13; i++) many.push(await createShort(alice));
    await bulk(alice, { ids: many.map((s) => s.id), addTags: ['Top'] });
    for (let i = 0; i < 8; i++) await follow(many[i], i + 1, i);
    await recorder().flush();
    const s = await tagStats(alice, 'tag=top');
    expect(s.shorts).toHaveLength(10);
    expect(s.shorts?.slice(0, 8).map((e) => [e.code, e.visits])).toEqual(
      many
        .slice(0, 8)
        .map((m, i) => [m.code, i + 1])
        .reverse(),
    );
    // Then those without visits, by id.
    expect(s.shorts?.slice(8)).toEqual(
      many
        .slice(8)
        .map((m) => ({ id: m.id, code: m.code, domain: null, visits: 0 }))
        .sort((a, b) => (a.id < b.id ? -1 : 1))
        .slice(0, 2),
    );
    expect(s.total.visits).toBe(36);
  });

  it('many values: top 10 and `other` per list, the sum kept', async () => {
    const shorts = await insertShorts(t, 30, () => ({ ownerId: carol.userId }));
    const ids = shorts.map((s) => s.id);
    await bulk(carol, { ids, addTags: ['Viele'] });
    const day = Math.floor(Date.now() / DAY) - 2;
    const rows = shorts.flatMap((s, i) =>
      Array.from({ length: 20 }, (_, j) => [
        s.id,
        day,
        'referrer',
        `r${(i * 20 + j) % 90}.example`,
        j + 1,
      ]),
    );
    for (let i = 0; i < rows.length; i += 100) {
      const part = rows.slice(i, i + 100);
      await t.query(
        `INSERT INTO stats_values (short_id, day_no, dim, name, hits) VALUES ${part.map(() => '(?, ?, ?, ?, ?)').join(', ')}`,
        part.flat(),
      );
    }
    const s = await tagStats(carol, 'tag=viele');
    const hits = rows.reduce((n, r) => n + Number(r[4]), 0);
    expect(s.referrers).toHaveLength(11);
    expect(s.referrers[10].name).toBe('other');
    expect(s.referrers.reduce((n, e) => n + e.count, 0)).toBe(hits);
    const counts = s.referrers.slice(0, 10).map((e) => e.count);
    expect(counts).toEqual([...counts].sort((a, b) => b - a));
    // The true top 10 of the 90 names.
    const byName = new Map<string, number>();
    for (const r of rows) byName.set(String(r[3]), (byName.get(String(r[3])) ?? 0) + Number(r[4]));
    const top = [...byName.values()].sort((a, b) => b - a).slice(0, 10);
    expect(counts).toEqual(top);
  });

  it('refuses a bad or missing tag, anonymous callers and keys without statistics:read', async () => {
    for (const q of ['', 'tag=', 'tag=a%2Cb', `tag=${'x'.repeat(33)}`, 'tag=%3Cb%3E']) {
      const p = await expectProblem(await alice.fetch(`/api/statistics?${q}`), 400);
      expect(p.errorKey, q).toBe('tag_invalid');
    }
    const range = await expectProblem(
      await alice.fetch('/api/statistics?tag=herbst&granularity=week'),
      400,
    );
    expect(range.fieldErrors?.granularity).toBeDefined();
    await expectProblem(await t.fetch('/api/statistics?tag=herbst'), 401);
    const key = async (scopes: string[]) => {
      const res = await alice.post('/api/self/apikeys', { name: `k${randomUUID()}`, scopes });
      return ((await res.json()) as { key: string }).key;
    };
    const viaKey = async (k: string) =>
      t.fetch('/api/statistics?tag=herbst', { headers: { authorization: `Bearer ${k}` } });
    const refused = await expectProblem(await viaKey(await key(['shorts:read'])), 403);
    expect(refused.errorKey).toBe('scope_missing');
    const allowed = await viaKey(await key(['statistics:read']));
    expect(allowed.status).toBe(200);
    expect(((await allowed.json()) as Stats).shorts).toHaveLength(3);
  });
});
