import { createHash, randomUUID } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { PageRenderer } from '../../src/pages/page-renderer';
import { PageViews } from '../../src/pages/page-views';
import { StatisticsRetention } from '../../src/statistics/statistics-retention';
import { LIMIT_PAGES } from '../../src/shared/pages';
import { TeamEntity, TeamMemberEntity } from '../../src/teams/team.entity';
import { addVerifiedDomain, useDomainsApp } from '../support/domains';
import { useBeforeAll } from '../support/hooks';
import { type LoggedIn, loginAs, useLogin } from '../support/login';
import { getOnHost } from '../support/on-host';
import { expectProblem } from '../support/problem';
import { createShort, insertShort } from '../support/shorts';
import { BROWSER_UA } from '../support/user-agent';

interface Page {
  id: string;
  slug: string;
  url: string;
  title: string;
  description: string | null;
  theme: 'light' | 'dark' | 'auto';
  team: { id: string; name: string } | null;
  links: Array<{
    shortId: string;
    label: string | null;
    code: string;
    name: string | null;
    shortUrl: string;
    shown: boolean;
  }>;
  createdAt: string;
  updatedAt: string;
}

let n = 0;
const slug = () => `page-${Date.now().toString(36)}-${++n}`;

describe('link pages (CONTRACT "Marketing links")', () => {
  const { dns, t } = useDomainsApp();
  const alice = useLogin(t, 'alice');
  const bob = useLogin(t, 'bob');
  const admin = useLogin(t, 'admin');

  const create = (u: LoggedIn, body: Record<string, unknown>) =>
    u.post('/api/pages', { slug: slug(), title: 'My links', links: [], theme: 'auto', ...body });

  const created = async (u: LoggedIn, body: Record<string, unknown>): Promise<Page> => {
    const res = await create(u, body);
    expect(res.status, await res.clone().text()).toBe(201);
    return (await res.json()) as Page;
  };

  /** The public page as a browser asks for it. */
  const view = (path: string, headers: Record<string, string> = {}) =>
    t.fetch(path, { headers: { 'user-agent': BROWSER_UA, ...headers } });

  const aliceShorts = useBeforeAll('alice’s shorts', async () => ({
    named: await createShort(alice, { url: 'https://example.com/a', name: 'Named short' }),
    plain: await createShort(alice, { url: 'https://example.com/b' }),
  }));

  it('creates, reads, lists, edits and deletes a page', async () => {
    const { named, plain } = aliceShorts;
    const s = slug();
    const p = await created(alice, {
      slug: s,
      title: '  Herbst  ',
      description: 'Alles zum Herbst',
      theme: 'dark',
      links: [{ shortId: named.id, label: 'First' }, { shortId: plain.id }],
    });
    expect(p).toMatchObject({
      slug: s,
      url: `http://short.example/p/${s}`,
      title: 'Herbst',
      description: 'Alles zum Herbst',
      theme: 'dark',
      team: null,
    });
    expect(p.links.map((l) => [l.shortId, l.label, l.shown])).toEqual([
      [named.id, 'First', true],
      [plain.id, null, true],
    ]);
    expect(p.links[1].shortUrl).toBe(plain.shortUrl);

    expect(((await (await alice.fetch(`/api/pages/${p.id}`)).json()) as Page).slug).toBe(s);
    const list = (await (await alice.fetch('/api/pages')).json()) as Page[];
    expect(list.map((x) => x.id)).toContain(p.id);
    expect(
      ((await (await bob.fetch('/api/pages')).json()) as Page[]).map((x) => x.id),
    ).not.toContain(p.id);

    const patched = await alice.patch(`/api/pages/${p.id}`, {
      title: 'Winter',
      description: null,
      links: [{ shortId: plain.id, label: 'Only' }],
    });
    expect(patched.status).toBe(200);
    const after = (await patched.json()) as Page;
    expect(after).toMatchObject({ title: 'Winter', description: null, theme: 'dark', slug: s });
    expect(after.links.map((l) => l.label)).toEqual(['Only']);

    expect((await bob.patch(`/api/pages/${p.id}`, { title: 'x' })).status).toBe(403);
    expect((await bob.delete(`/api/pages/${p.id}`)).status).toBe(403);
    expect((await t.fetch(`/api/pages/${p.id}`)).status).toBe(401);
    expect((await alice.delete(`/api/pages/${p.id}`)).status).toBe(204);
    expect((await expectProblem(await alice.fetch(`/api/pages/${p.id}`), 404)).errorKey).toBe(
      'entity_not_exists',
    );
    expect((await view(`/p/${s}`)).status).toBe(404);
  });

  it('slugs follow the custom-code rules and are unique per instance', async () => {
    for (const bad of ['ab', 'with space', 'x'.repeat(65), 'ü-page']) {
      const res = await create(alice, { slug: bad });
      expect((await expectProblem(res, 400)).errorKey, bad).toBe('slug_invalid');
    }
    for (const reserved of ['login', 'API', 'shorts']) {
      expect((await expectProblem(await create(alice, { slug: reserved }), 400)).errorKey).toBe(
        'slug_reserved',
      );
    }
    const s = slug();
    await created(alice, { slug: s });
    expect((await expectProblem(await create(bob, { slug: s }), 409)).errorKey).toBe('slug_exists');
    // Case-sensitive like codes: another case is another slug.
    await created(bob, { slug: s.toUpperCase() });
    // A race of equal slugs: exactly one wins, the rest get 409 (never 500).
    const raced = slug();
    const answers = await Promise.all([1, 2, 3, 4].map(() => create(alice, { slug: raced })));
    expect(answers.map((r) => r.status).sort()).toEqual([201, 409, 409, 409]);
    // A PATCH onto a taken slug is refused the same way.
    const other = await created(alice, {});
    expect(
      (await expectProblem(await alice.patch(`/api/pages/${other.id}`, { slug: s }), 409)).errorKey,
    ).toBe('slug_exists');
  });

  it('bounds title, description, labels and the number of links', async () => {
    const { plain } = aliceShorts;
    const long = await create(alice, { title: 'x'.repeat(121) });
    expect(long.status).toBe(400);
    expect(((await long.json()) as { fieldErrors: object }).fieldErrors).toHaveProperty('title');
    expect((await create(alice, { title: '   ' })).status).toBe(400);
    expect((await create(alice, { description: 'd'.repeat(501) })).status).toBe(400);
    const label = await create(alice, { links: [{ shortId: plain.id, label: 'l'.repeat(121) }] });
    expect(label.status).toBe(400);
    const many = Array.from({ length: 101 }, () => ({ shortId: plain.id }));
    expect((await create(alice, { links: many })).status).toBe(400);
    expect((await create(alice, { theme: 'neon' })).status).toBe(400);
    expect((await create(alice, { unknown: 1 })).status).toBe(400);
    const exactly = await create(alice, {
      title: 't'.repeat(120),
      links: Array.from({ length: 100 }, () => ({ shortId: plain.id, label: 'l'.repeat(120) })),
    });
    expect(exactly.status).toBe(201);
  });

  it('refuses a short the caller may not read in the page’s space', async () => {
    const bobs = await createShort(bob, { url: 'https://example.com/bob' });
    const anonymous = await createShort(t, { url: 'https://example.com/anon' });
    for (const shortId of [bobs.id, anonymous.id, randomUUID()]) {
      const res = await create(alice, { links: [{ shortId }] });
      const problem = await expectProblem(res, 400);
      expect(problem.errorKey).toBe('page_link_invalid');
      expect(problem.fieldErrors).toHaveProperty('links[0].shortId');
    }
    const mine = await created(alice, { links: [{ shortId: aliceShorts.plain.id }] });
    const patched = await alice.patch(`/api/pages/${mine.id}`, { links: [{ shortId: bobs.id }] });
    expect((await expectProblem(patched, 400)).errorKey).toBe('page_link_invalid');
  });

  it('a team page takes the team’s shorts: its editors write it, its viewers read it', async () => {
    const team = randomUUID();
    await t.ds
      .getRepository(TeamEntity)
      .insert({ id: team, name: 'Marketing', createdAt: new Date() });
    await t.ds.getRepository(TeamMemberEntity).insert([
      { teamId: team, userId: alice.userId, role: 'editor', joinedAt: new Date() },
      { teamId: team, userId: bob.userId, role: 'viewer', joinedAt: new Date() },
    ]);
    const teamShort = await insertShort(t, {
      ownerId: alice.userId,
      teamId: team,
      name: 'Team short',
    });
    // An own short does not go on a team page, nor a team short on an own page.
    const own = await create(alice, { team, links: [{ shortId: aliceShorts.plain.id }] });
    expect((await expectProblem(own, 400)).errorKey).toBe('page_link_invalid');
    const cross = await create(alice, { links: [{ shortId: teamShort.id }] });
    expect((await expectProblem(cross, 400)).errorKey).toBe('page_link_invalid');
    // A viewer may not create one.
    expect((await expectProblem(await create(bob, { team }), 403)).errorKey).toBe('team_forbidden');

    const p = await created(alice, { team, links: [{ shortId: teamShort.id }] });
    expect(p.team).toEqual({ id: team, name: 'Marketing' });
    expect(((await (await bob.fetch(`/api/pages/${p.id}`)).json()) as Page).id).toBe(p.id);
    const bobs = (await (await bob.fetch(`/api/pages?team=${team}`)).json()) as Page[];
    expect(bobs.map((x) => x.id)).toEqual([p.id]);
    expect((await bob.patch(`/api/pages/${p.id}`, { title: 'x' })).status).toBe(403);
    expect((await bob.fetch(`/api/pages/${p.id}/statistics`)).status).toBe(200);
    const body = await (await view(`/p/${p.slug}`)).text();
    expect(body).toContain('Team short');
  });

  it('caps the pages of a user (409 quota_exceeded, nothing written)', async () => {
    const carol = await loginAs(t, 'carol');
    for (let i = 0; i < LIMIT_PAGES; i++) await created(carol, {});
    const res = await create(carol, {});
    const problem = await expectProblem(res, 409);
    expect(problem.errorKey).toBe('quota_exceeded');
    expect(problem.detail).toContain(String(LIMIT_PAGES));
    expect(((await (await carol.fetch('/api/pages')).json()) as Page[]).length).toBe(LIMIT_PAGES);
  });

  it('renders the public page: links by label, else name, else code, through the shorts', async () => {
    const { named, plain } = aliceShorts;
    const s = slug();
    await created(alice, {
      slug: s,
      title: 'Tom & <Jerry>',
      description: 'Say "hi"',
      theme: 'light',
      links: [
        { shortId: plain.id, label: '<script>alert(1)</script>' },
        { shortId: named.id },
        { shortId: plain.id, label: '   ' },
      ],
    });
    const res = await view(`/p/${s}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toMatch(/default-src 'none'/);
    expect(csp).toMatch(/style-src 'sha256-[A-Za-z0-9+/=]+'/);
    expect(csp).not.toMatch(/unsafe-inline|script-src/);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    const html = await res.text();
    expect(html).not.toContain('<script');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('Tom &amp; &lt;Jerry&gt;');
    expect(html).toContain('Say &quot;hi&quot;');
    expect(html).toContain(`href="${plain.shortUrl}"`);
    const texts = [...html.matchAll(/<a class="link" href="([^"]+)"[^>]*>([^<]*)<\/a>/g)].map(
      (m) => [m[1], m[2]],
    );
    expect(texts).toEqual([
      [plain.shortUrl, '&lt;script&gt;alert(1)&lt;/script&gt;'],
      [named.shortUrl, 'Named short'],
      [plain.shortUrl, plain.code],
    ]);
    // The style is the one the CSP's hash names.
    const style = /<style>([^<]*)<\/style>/.exec(html)?.[1] ?? '';
    expect(csp).toContain(`'sha256-${createHash('sha256').update(style).digest('base64')}'`);
    // HEAD: the headers, no body.
    const head = await t.fetch(`/p/${s}`, {
      method: 'HEAD',
      headers: { 'user-agent': BROWSER_UA },
    });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
  });

  it('leaves out links whose short expired, ran out of uses or is flagged dangerous', async () => {
    const base = { ownerId: alice.userId };
    const ok = await insertShort(t, { ...base, name: 'Visible' });
    const expired = await insertShort(t, {
      ...base,
      name: 'Expired',
      expireAt: new Date(Date.now() - 60_000),
    });
    const used = await insertShort(t, { ...base, name: 'Used up', maxUses: 2, uses: 2 });
    const left = await insertShort(t, { ...base, name: 'One left', maxUses: 2, uses: 1 });
    const flagged = await insertShort(t, { ...base, name: 'Flagged', dangerous: true });
    const p = await created(alice, {
      links: [ok, expired, used, left, flagged].map((s) => ({ shortId: s.id })),
    });
    expect(p.links.map((l) => l.shown)).toEqual([true, false, false, true, false]);
    const html = await (await view(`/p/${p.slug}`)).text();
    expect(html).toContain('Visible');
    expect(html).toContain('One left');
    for (const gone of ['Expired', 'Used up', 'Flagged']) expect(html).not.toContain(gone);
    // A short deleted later simply drops out.
    expect((await alice.delete(`/api/code/${ok.id}`)).status).toBe(204);
    const again = await (await view(`/p/${p.slug}`)).text();
    expect(again).not.toContain('Visible');
    expect(((await (await alice.fetch(`/api/pages/${p.id}`)).json()) as Page).links).toHaveLength(
      4,
    );
  });

  it('renders light, dark and auto themes and an empty page', async () => {
    const html = async (theme: string) => {
      const p = await created(alice, { theme });
      return (await view(`/p/${p.slug}`)).text();
    };
    const light = await html('light');
    expect(light).toContain('data-theme="light"');
    expect(light).toContain('color-scheme:light;');
    expect(light).not.toContain('prefers-color-scheme');
    const dark = await html('dark');
    expect(dark).toContain('data-theme="dark"');
    expect(dark).toContain('color-scheme:dark;');
    const auto = await html('auto');
    expect(auto).toContain('@media (prefers-color-scheme:dark)');
    expect(auto).toContain('Hier sind noch keine Links.');
  });

  it('speaks German or English by Accept-Language', async () => {
    const p = await created(alice, {});
    const en = await view(`/p/${p.slug}`, { 'accept-language': 'en-US,en;q=0.9' });
    expect(en.headers.get('content-language')).toBe('en');
    expect(en.headers.get('vary')).toMatch(/Accept-Language/);
    const enHtml = await en.text();
    expect(enHtml).toContain('<html lang="en"');
    expect(enHtml).toContain('There are no links here yet.');
    const de = await view(`/p/${p.slug}`, { 'accept-language': 'de-DE,de;q=0.9,en;q=0.5' });
    expect(de.headers.get('content-language')).toBe('de');
    expect(await de.text()).toContain('<html lang="de"');
    const missing = await view('/p/no-such-page-here', { 'accept-language': 'en' });
    expect(missing.status).toBe(404);
    expect(await missing.text()).toContain('Page not found');
  });

  it('counts views in batches and answers them as visits in the statistics', async () => {
    const p = await created(alice, {});
    for (let i = 0; i < 3; i++) expect((await view(`/p/${p.slug}`)).status).toBe(200);
    await t.fetch(`/p/${p.slug}`, {
      headers: { 'user-agent': 'Googlebot/2.1 (+http://www.google.com/bot.html)' },
    });
    await t.app.get(PageViews).flush();
    const res = await alice.fetch(
      `/api/pages/${p.id}/statistics?granularity=hour&tz=UTC&from=${new Date(Date.now() - 3_600_000).toISOString()}`,
    );
    expect(res.status).toBe(200);
    const stats = (await res.json()) as {
      total: { visits: number; visitors: number; bots: number };
      series: Array<{ start: string; visits: number }>;
      granularity: string;
      tz: string;
    };
    expect(stats.total).toEqual({ visits: 3, visitors: 0, bots: 1 });
    expect(stats.series.reduce((a, b) => a + b.visits, 0)).toBe(3);
    expect(stats.tz).toBe('UTC');
    expect((await bob.fetch(`/api/pages/${p.id}/statistics`)).status).toBe(403);
    expect((await alice.fetch(`/api/pages/${p.id}/statistics?granularity=week`)).status).toBe(400);
  });

  it('shows a page at an own domain’s root (homePage), and only a page of the domain’s owner', async () => {
    const host = `pages-${Date.now().toString(36)}.example`;
    const d = await addVerifiedDomain(dns, alice, host);
    const p = await created(alice, {
      title: 'Domain home',
      links: [{ shortId: aliceShorts.named.id }],
    });
    const bobs = await created(bob, {});
    const refused = await alice.patch(`/api/domains/${d.id}`, { homePage: bobs.id });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { fieldErrors: object }).fieldErrors).toHaveProperty(
      'homePage',
    );
    const before = await getOnHost(t.url, host, '/');
    expect(before.status).toBe(302);

    const set = await alice.patch(`/api/domains/${d.id}`, { homePage: p.id });
    expect(set.status).toBe(200);
    expect(((await set.json()) as { homePage: string }).homePage).toBe(p.id);
    const home = await getOnHost(t.url, host, '/');
    expect(home.status).toBe(200);
    expect(home.body).toContain('Domain home');
    expect(home.body).toContain('Named short');
    // With a query, too.
    expect((await getOnHost(t.url, host, '/?utm=1')).status).toBe(200);

    // An admin's shared domain may show any page.
    const shared = `shared-${Date.now().toString(36)}.example`;
    const sd = (await (
      await admin.post('/api/domains', { host: shared, shared: true })
    ).json()) as { id: string };
    expect((await admin.patch(`/api/domains/${sd.id}`, { homePage: bobs.id })).status).toBe(200);
    expect((await getOnHost(t.url, shared, '/')).status).toBe(200);

    // Deleting the page clears the domain's home page: its `/` redirects again.
    expect((await alice.delete(`/api/pages/${p.id}`)).status).toBe(204);
    expect((await getOnHost(t.url, host, '/')).status).toBe(302);
    const domain = (await (await alice.fetch('/api/domains')).json()) as Array<{
      id: string;
      homePage: string | null;
    }>;
    expect(domain.find((x) => x.id === d.id)?.homePage).toBeNull();
    const cleared = await alice.patch(`/api/domains/${d.id}`, { homePage: null });
    expect(cleared.status).toBe(200);
  });

  it('a deleted team takes its pages along', async () => {
    const team = randomUUID();
    await t.ds.getRepository(TeamEntity).insert({ id: team, name: 'Gone', createdAt: new Date() });
    await t.ds
      .getRepository(TeamMemberEntity)
      .insert({ teamId: team, userId: alice.userId, role: 'owner', joinedAt: new Date() });
    const p = await created(alice, { team });
    expect((await alice.delete(`/api/teams/${team}`)).status).toBe(204);
    expect((await alice.fetch(`/api/pages/${p.id}`)).status).toBe(404);
    expect((await view(`/p/${p.slug}`)).status).toBe(404);
  });

  it('moves a page between the own space and a team its mover may write in (PATCH team)', async () => {
    const team = randomUUID();
    await t.ds
      .getRepository(TeamEntity)
      .insert({ id: team, name: 'Movers', createdAt: new Date() });
    await t.ds.getRepository(TeamMemberEntity).insert([
      { teamId: team, userId: alice.userId, role: 'editor', joinedAt: new Date() },
      { teamId: team, userId: bob.userId, role: 'viewer', joinedAt: new Date() },
    ]);
    const teamShort = await insertShort(t, {
      ownerId: alice.userId,
      teamId: team,
      name: 'Team link',
    });
    const p = await created(alice, { links: [{ shortId: aliceShorts.plain.id }] });
    const host = `move-${Date.now().toString(36)}.example`;
    const d = await addVerifiedDomain(dns, alice, host);
    expect((await alice.patch(`/api/domains/${d.id}`, { homePage: p.id })).status).toBe(200);
    expect((await getOnHost(t.url, host, '/')).status).toBe(200);

    // Its own short does not go along: refused, nothing moved.
    const refused = await alice.patch(`/api/pages/${p.id}`, { team });
    const problem = await expectProblem(refused, 400);
    expect(problem.errorKey).toBe('page_link_invalid');
    expect(problem.fieldErrors).toHaveProperty('links[0].shortId');
    expect(((await (await alice.fetch(`/api/pages/${p.id}`)).json()) as Page).team).toBeNull();
    // A team he may not write in.
    const strange = await alice.patch(`/api/pages/${p.id}`, { team: randomUUID(), links: [] });
    expect((await expectProblem(strange, 403)).errorKey).toBe('team_forbidden');

    const moved = await alice.patch(`/api/pages/${p.id}`, {
      team,
      links: [{ shortId: teamShort.id }],
    });
    expect(moved.status, await moved.clone().text()).toBe(200);
    const page = (await moved.json()) as Page;
    expect(page.team).toEqual({ id: team, name: 'Movers' });
    expect(page.links.map((l) => l.shortId)).toEqual([teamShort.id]);
    const bobs = (await (await bob.fetch(`/api/pages?team=${team}`)).json()) as Page[];
    expect(bobs.map((x) => x.id)).toEqual([p.id]);
    expect(await (await view(`/p/${p.slug}`)).text()).toContain('Team link');
    // The own domain no longer shows a team's page at its `/`.
    expect((await getOnHost(t.url, host, '/')).status).toBe(302);
    const domains = (await (await alice.fetch('/api/domains')).json()) as Array<{
      id: string;
      homePage: string | null;
    }>;
    expect(domains.find((x) => x.id === d.id)?.homePage).toBeNull();

    // A viewer may not move it out; an editor may, into his own space.
    expect((await bob.patch(`/api/pages/${p.id}`, { team: null, links: [] })).status).toBe(403);
    const back = await alice.patch(`/api/pages/${p.id}`, { team: null });
    expect((await expectProblem(back, 400)).errorKey).toBe('page_link_invalid');
    const home = await alice.patch(`/api/pages/${p.id}`, { team: null, links: [] });
    expect(home.status).toBe(200);
    expect(((await home.json()) as Page).team).toBeNull();
    const own = (await (await alice.fetch('/api/pages')).json()) as Page[];
    expect(own.find((x) => x.id === p.id)?.team).toBeNull();
    expect((await bob.fetch(`/api/pages/${p.id}`)).status).toBe(403);
  });

  describe('in the admin area', () => {
    const search = (query: string) =>
      admin.post('/api/admin/entity/pages/search', { query_string: { query } });
    const found = async (query: string) => {
      const res = await search(query);
      expect(res.status, query).toBe(200);
      return ((await res.json()) as { content: Array<Record<string, unknown>> }).content;
    };

    it('lists pages with their link count, searchable by slug, title, owner, team, theme and creation', async () => {
      const mark = randomUUID().slice(0, 8);
      const own = await created(alice, {
        title: `Abuse ${mark}`,
        theme: 'dark',
        links: [{ shortId: aliceShorts.named.id }, { shortId: aliceShorts.plain.id }],
      });
      const team = randomUUID();
      await t.ds
        .getRepository(TeamEntity)
        .insert({ id: team, name: `Crew ${mark}`, createdAt: new Date() });
      await t.ds
        .getRepository(TeamMemberEntity)
        .insert({ teamId: team, userId: bob.userId, role: 'owner', joinedAt: new Date() });
      const teams = await created(bob, { team, title: `Team page ${mark}`, theme: 'light' });

      const [row] = await found(`slug:${own.slug}`);
      expect(row).toMatchObject({
        id: own.id,
        slug: own.slug,
        title: own.title,
        theme: 'dark',
        links: 2,
        ownerId: alice.userId,
        owner: 'alice',
        teamId: null,
        team: null,
        createdAt: own.createdAt,
      });
      expect((await found(`title:"Abuse ${mark}"`)).map((r) => r.id)).toEqual([own.id]);
      expect((await found(`"${mark}"`)).map((r) => r.id).sort()).toEqual([own.id, teams.id].sort());
      expect((await found(`team:"Crew ${mark}"`)).map((r) => r.id)).toEqual([teams.id]);
      expect((await found(`team:"Crew ${mark}"`))[0]).toMatchObject({ owner: 'bob', links: 0 });
      const alices = (await found(`owner:alice AND theme:dark AND title:*${mark}*`)).map(
        (r) => r.id,
      );
      expect(alices).toEqual([own.id]);
      const since = new Date(Date.parse(own.createdAt) - 1000).toISOString();
      expect((await found(`createdAt:>"${since}" AND title:*${mark}*`)).length).toBe(2);
      expect((await search('theme:purple')).status).toBe(400);
      expect(
        (await alice.post('/api/admin/entity/pages/search', { query_string: { query: '' } }))
          .status,
      ).toBe(403);
      // Not editable by admins (its owner edits it).
      expect((await admin.put(`/api/admin/entity/pages/${own.id}`, { title: 'x' })).status).toBe(
        400,
      );
    });

    it('deletes an abusive page: gone at once, also from a view just cached', async () => {
      const p = await created(alice, { title: 'Phishing here' });
      expect((await view(`/p/${p.slug}`)).status).toBe(200);
      expect((await alice.delete(`/api/admin/entity/pages/${p.id}`)).status).toBe(403);
      expect((await admin.delete(`/api/admin/entity/pages/${p.id}`)).status).toBe(204);
      expect((await view(`/p/${p.slug}`)).status).toBe(404);
      expect((await alice.fetch(`/api/pages/${p.id}`)).status).toBe(404);
      const again = await admin.delete(`/api/admin/entity/pages/${p.id}`);
      expect((await expectProblem(again, 404)).errorKey).toBe('entity_not_exists');
      // A page whose creator is gone (shown nowhere, swept hourly) is listed and deleted too.
      const orphan = await created(alice, { title: 'Orphan' });
      await t.query('UPDATE pages SET owner_id = NULL WHERE id = ?', [orphan.id]);
      const [row] = await found(`slug:${orphan.slug}`);
      expect(row).toMatchObject({ id: orphan.id, ownerId: null, owner: null });
      expect((await admin.delete(`/api/admin/entity/pages/${orphan.id}`)).status).toBe(204);
      expect(await found(`slug:${orphan.slug}`)).toEqual([]);
    });
  });

  describe('under hostile traffic', () => {
    it('answers a slug longer than 64 characters or not of the slug syntax 404 without reading', async () => {
      const renderer = t.app.get(PageRenderer);
      const bySlug = vi.spyOn(renderer, 'bySlug');
      const query = vi.spyOn(t.ds, 'query');
      try {
        for (const path of [
          `/p/${'a'.repeat(65)}`,
          `/p/${'a'.repeat(8000)}`,
          '/p/a%20b',
          '/p/ab',
          '/p/%E0%A4%A',
          "/p/x'%20OR%201=1--",
        ]) {
          const res = await view(path);
          expect(res.status, path.slice(0, 40)).toBe(404);
          expect(await res.text()).toContain('Seite nicht gefunden');
        }
        expect(bySlug).not.toHaveBeenCalled();
        expect(query.mock.calls.filter(([sql]) => /\bpages\b/.test(String(sql)))).toEqual([]);
        // A slug of the syntax is looked up.
        expect((await view(`/p/${'b'.repeat(64)}`)).status).toBe(404);
        expect(bySlug).toHaveBeenCalledTimes(1);
      } finally {
        bySlug.mockRestore();
        query.mockRestore();
      }
    });

    it('reads a page once for a flood of views, and sees its changes and its shorts’ at once', async () => {
      const short = await createShort(alice, { url: 'https://example.com/flood', name: 'Before' });
      const p = await created(alice, { title: 'Flood', links: [{ shortId: short.id }] });
      const query = vi.spyOn(t.ds, 'query');
      const reads = () =>
        query.mock.calls.filter(([sql]) => /FROM pages p LEFT JOIN page_links/.test(String(sql)))
          .length;
      try {
        const views = await Promise.all(Array.from({ length: 30 }, () => view(`/p/${p.slug}`)));
        expect(views.map((r) => r.status)).toEqual(Array(30).fill(200));
        expect(reads()).toBe(1);
        for (let i = 0; i < 10; i++) expect((await view(`/p/${p.slug}`)).status).toBe(200);
        expect(reads()).toBe(1);

        // The page's own change, its short's change and a new slug show on the next view.
        expect((await alice.patch(`/api/pages/${p.id}`, { title: 'Changed' })).status).toBe(200);
        expect(await (await view(`/p/${p.slug}`)).text()).toContain('Changed');
        expect((await alice.patch(`/api/code/${short.id}`, { name: 'After' })).status).toBe(200);
        const after = await (await view(`/p/${p.slug}`)).text();
        expect(after).toContain('After');
        expect(after).not.toContain('Before');
        const renamed = slug();
        expect((await alice.patch(`/api/pages/${p.id}`, { slug: renamed })).status).toBe(200);
        expect((await view(`/p/${p.slug}`)).status).toBe(404);
        expect((await view(`/p/${renamed}`)).status).toBe(200);
        // A slug seen absent, then created, is found at once.
        const later = slug();
        expect((await view(`/p/${later}`)).status).toBe(404);
        await created(alice, { slug: later });
        expect((await view(`/p/${later}`)).status).toBe(200);
      } finally {
        query.mockRestore();
      }
      // Each view counted once.
      await t.app.get(PageViews).flush();
      const [row] = await t.query<Array<{ n: number | string }>>(
        'SELECT SUM(views) AS n FROM page_views WHERE page_id = ?',
        [p.id],
      );
      expect(Number(row.n)).toBe(30 + 10 + 3);
      expect(t.app.get(PageRenderer).cached).toBeLessThanOrEqual(1000);
    });
  });

  it('keeps page views as long as a short’s statistics (STATS_RETENTION_DAYS)', async () => {
    const p = await created(alice, {});
    const hour = Math.floor(Date.now() / 3_600_000);
    const keptHours = t.config.stats.retentionDays * 24;
    const insert = 'INSERT INTO page_views (page_id, hour_no, views, bots) VALUES (?, ?, ?, ?)';
    await t.query(insert, [p.id, hour - keptHours - 30, 5, 1]);
    await t.query(insert, [p.id, hour - keptHours + 30, 7, 0]);
    await t.query(insert, [p.id, hour - 1, 2, 0]);
    expect(await t.app.get(StatisticsRetention).run()).toBe(true);
    const left = await t.query<Array<{ hour_no: number | string; views: number | string }>>(
      'SELECT hour_no, views FROM page_views WHERE page_id = ? ORDER BY hour_no',
      [p.id],
    );
    expect(left.map((r) => [Number(r.hour_no), Number(r.views)])).toEqual([
      [hour - keptHours + 30, 7],
      [hour - 1, 2],
    ]);
  });
});
