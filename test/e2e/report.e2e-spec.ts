import 'reflect-metadata';
import { describe, expect, it } from 'vitest';
import { ShortEntity } from '../../src/shorts/short.entity';
import { ReportEntity } from '../../src/report/report.entity';
import { useTestApp } from '../support/app';
import { loginAs, type LoggedIn, useLogin } from '../support/login';
import { createShort } from '../support/shorts';

describe('reports and the danger flag', () => {
  const t = useTestApp({
    AUTH_DEV_LOGIN: 'true',
    ADMIN_USERS: 'dev:admin',
    REPORT_THRESHOLD: '3',
  });
  const admin = useLogin(t, 'admin');

  const createReported = (url = 'https://example.com/reported') => createShort(t, { url });

  async function users(prefix: string, n: number): Promise<LoggedIn[]> {
    const out: LoggedIn[] = [];
    for (let i = 0; i < n; i++) out.push(await loginAs(t, `${prefix}${i}`));
    return out;
  }

  async function flaggedTotal(): Promise<number> {
    const res = await admin.fetch('/management/prometheus');
    expect(res.status).toBe(200);
    const m = /^url_shorter_shorts_flagged_dangerous_total (\d+)/m.exec(await res.text());
    return m ? Number(m[1]) : NaN;
  }

  const report = (u: LoggedIn, code: string, reason = 'SPAM', description = 'spam link') =>
    u.post(`/api/code/${code}/report`, { reason, description });

  const follow = async (code: string) =>
    (await t.fetch(`/api/code/${code}`)).headers.get('location');

  it('needs a login', async () => {
    const { code } = await createReported();
    const res = await t.post(`/api/code/${code}/report`, { reason: 'SPAM', description: 'x' });
    expect(res.status).toBe(401);
  });

  it('validates reason and description', async () => {
    const { code } = await createReported();
    const [u] = await users('val', 1);
    const bad = await report(u, code, 'NOT_A_REASON', '');
    expect(bad.status).toBe(400);
    const p = (await bad.json()) as { fieldErrors: Record<string, string> };
    expect(Object.keys(p.fieldErrors).sort()).toEqual(['description', 'reason']);
    const long = await report(u, code, 'SPAM', 'x'.repeat(2001));
    expect(long.status).toBe(400);
    expect(await t.ds.getRepository(ReportEntity).countBy({ reporterId: u.userId })).toBe(0);
  });

  it('answers 404 with the exact detail for an unknown short', async () => {
    const [u] = await users('nf', 1);
    const res = await report(u, 'doesNotExist1');
    expect(res.status).toBe(404);
    const p = (await res.json()) as { detail: string; errorKey: string };
    expect(p.detail).toBe('Entity URLShort not exists');
    expect(p.errorKey).toBe('entity_not_exists');
  });

  it('answers 409 Entity already exists for a second report by the same user', async () => {
    const { code } = await createReported();
    const [u] = await users('dup', 1);
    const first = await report(u, code);
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ success: true });
    const second = await report(u, code, 'HATEFUL', 'again');
    expect(second.status).toBe(409);
    const p = (await second.json()) as { detail: string; error: string };
    expect(p.detail).toBe('Entity already exists');
    expect(p.error).toBe('Entity already exists');
  });

  it('flags a short once when 3 distinct users reported it, with the most frequent reason', async () => {
    const { code, id } = await createReported('https://example.com/threshold');
    const before = await flaggedTotal();
    const [a, b, c, d] = await users('th', 4);
    expect((await report(a, code, 'SPAM')).status).toBe(200);
    expect((await report(b, code, 'HATEFUL')).status).toBe(200);
    expect(await follow(code)).toBe('https://example.com/threshold');
    expect((await t.ds.getRepository(ShortEntity).findOneByOrFail({ id })).dangerous).toBe(false);
    expect((await report(c, code, 'SPAM')).status).toBe(200);
    const s = await t.ds.getRepository(ShortEntity).findOneByOrFail({ id });
    expect(s.dangerous).toBe(true);
    expect(s.dangerReason).toBe('SPAM');
    expect(await follow(code)).toBe(`/s/${code}/potentially-dangerous`);
    expect(
      await t.fetch(`/api/code/${code}?accept_danger=true`).then((r) => r.headers.get('location')),
    ).toBe('https://example.com/threshold');
    // The info call shows the danger.
    const info = (await (await t.fetch(`/api/code/${code}?redirect=false`)).json()) as {
      dangers: boolean;
    };
    expect(info.dangers).toBe(true);
    expect((await report(d, code, 'VIOLENCE')).status).toBe(200);
    expect(await flaggedTotal()).toBe(before + 1);
  });

  it('20 concurrent reports by distinct users: 20 reports, one flag', async () => {
    const { code, id } = await createReported('https://example.com/concurrent');
    const reporters = await users('cc', 20);
    const before = await flaggedTotal();
    const answers = await Promise.all(
      reporters.map((u, i) => report(u, code, i % 3 === 0 ? 'ILLEGAL' : 'SPAM')),
    );
    expect(answers.map((r) => r.status)).toEqual(Array(20).fill(200));
    expect(await t.ds.getRepository(ReportEntity).countBy({ shortId: id })).toBe(20);
    const s = await t.ds.getRepository(ShortEntity).findOneByOrFail({ id });
    expect(s.dangerous).toBe(true);
    // The reason is the most frequent one among the reports counted when the threshold was reached.
    expect(['SPAM', 'ILLEGAL']).toContain(s.dangerReason);
    expect(await flaggedTotal()).toBe(before + 1);
  });

  it('50 reports by one user count once and do not flag', async () => {
    const { code, id } = await createReported('https://example.com/one-user');
    const [u] = await users('fifty', 1);
    const answers = await Promise.all(Array.from({ length: 50 }, () => report(u, code)));
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(49);
    expect(await t.ds.getRepository(ReportEntity).countBy({ shortId: id })).toBe(1);
    expect((await t.ds.getRepository(ShortEntity).findOneByOrFail({ id })).dangerous).toBe(false);
    expect(await follow(code)).toBe('https://example.com/one-user');
  });

  it('admins clear and set the flag through the admin API; the follow sees it at once', async () => {
    const { code, id } = await createReported('https://example.com/moderated');
    for (const u of await users('mod', 3))
      expect((await report(u, code, 'HARMFUL')).status).toBe(200);
    expect(await follow(code)).toBe(`/s/${code}/potentially-dangerous`);

    const cleared = await admin.put(`/api/admin/entity/shorts/${id}`, { dangerous: false });
    expect(cleared.status).toBe(200);
    const row = (await cleared.json()) as { dangerous: boolean; dangerReason: string | null };
    expect(row).toMatchObject({ dangerous: false, dangerReason: null });
    expect(await follow(code)).toBe('https://example.com/moderated');
    // The reports that caused the flag are dismissed, so they do not flag it again.
    const states = (await t.ds.getRepository(ReportEntity).findBy({ shortId: id })).map(
      (r) => r.state,
    );
    expect(states).toEqual(['dismissed', 'dismissed', 'dismissed']);
    const [late] = await users('late', 1);
    expect((await report(late, code, 'SPAM')).status).toBe(200);
    expect(await follow(code)).toBe('https://example.com/moderated');

    const set = await admin.put(`/api/admin/entity/shorts/${id}`, {
      dangerous: true,
      dangerReason: 'TERRORISM',
    });
    expect(set.status).toBe(200);
    expect(await set.json()).toMatchObject({ dangerous: true, dangerReason: 'TERRORISM' });
    expect(await follow(code)).toBe(`/s/${code}/potentially-dangerous`);

    // Moderation queue: the open report is now actioned; an admin can change a report's state.
    const q = await admin.post('/api/admin/entity/reports/search', {
      query_string: { query: `shortCode:"${code}" AND state:actioned` },
    });
    expect(q.status).toBe(200);
    const page = (await q.json()) as {
      totalElements: number;
      content: Array<{ id: string; reporter: string }>;
    };
    expect(page.totalElements).toBe(1);
    expect(page.content[0].reporter).toBe('late0');
    const dismissed = await admin.put(`/api/admin/entity/reports/${page.content[0].id}`, {
      state: 'dismissed',
    });
    expect(dismissed.status).toBe(200);
    expect(await dismissed.json()).toMatchObject({ state: 'dismissed' });
  });
});
