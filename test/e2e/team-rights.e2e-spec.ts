import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { DomainRegistry } from '../../src/domains/domain-registry';
import { DomainEntity } from '../../src/domains/domain.entity';
import type { TeamRole } from '../../src/shared/teams';
import { TeamEntity, TeamMemberEntity } from '../../src/teams/team.entity';
import { useDomainsApp } from '../support/domains';
import { type LoggedIn, useLogin } from '../support/login';
import { insertShort } from '../support/shorts';

/**
 * Every right of every role on every endpoint that takes a short or a domain (CONTRACT "Teams"), as
 * one table of (action × role → answer). The short or domain of each row belongs to a team where
 * `owner`, `editor` and `viewer` have those roles; `outsider` is logged in but no member; `admin`
 * has ROLE_ADMIN and no membership. A row's answer is the status, or what the row reads of the
 * answer where the status alone says too little (`owner-view`: the info call shows uses and visits).
 * The last test holds the table complete: every operation of the OpenAPI document under /api/code,
 * /api/domains, /api/statistics, /api/tags, /api/utm-templates, /api/pages and /s/ must have a row, so
 * a new endpoint must add its own.
 */

type Role = 'owner' | 'editor' | 'viewer' | 'outsider' | 'admin';
const ROLES: readonly Role[] = ['owner', 'editor', 'viewer', 'outsider', 'admin'];
type Answers = Record<Role, string>;

/** The same answer for every role. */
const all = (answer: string): Answers => ({
  owner: answer,
  editor: answer,
  viewer: answer,
  outsider: answer,
  admin: answer,
});
/** Members read, writers and admins write: `yes` for whom the row allows, `no` for the others. */
const readers = (yes: string, no: string): Answers => ({
  owner: yes,
  editor: yes,
  viewer: yes,
  outsider: no,
  admin: yes,
});
const writers = (yes: string, no: string): Answers => ({
  owner: yes,
  editor: yes,
  viewer: no,
  outsider: no,
  admin: yes,
});

describe('team rights: (role × action → answer) on every endpoint that takes a short or a domain', () => {
  const { dns, t } = useDomainsApp({ METADATA_ALLOW_LOOPBACK: 'true' });
  const users: Record<Role, LoggedIn> = {
    owner: useLogin(t, 'tom'),
    editor: useLogin(t, 'eddie'),
    viewer: useLogin(t, 'vera'),
    outsider: useLogin(t, 'otto'),
    admin: useLogin(t, 'admin'),
  };
  const TEAM = randomUUID();
  /** A target that answers at once (a closed loopback port): health checks and previews stay fast. */
  const TARGET = 'http://127.0.0.1:9/target';

  beforeAll(async () => {
    await t.ds
      .getRepository(TeamEntity)
      .insert({ id: TEAM, name: 'Marketing', createdAt: new Date() });
    const roles: Array<[Role, TeamRole]> = [
      ['owner', 'owner'],
      ['editor', 'editor'],
      ['viewer', 'viewer'],
    ];
    await t.ds.getRepository(TeamMemberEntity).insert(
      roles.map(([who, role]) => ({
        teamId: TEAM,
        userId: users[who].userId,
        role,
        joinedAt: new Date(),
      })),
    );
  });

  /** A short of the team (created by its owner), fresh for each call that changes or ends it. */
  const teamShort = (fields: Record<string, unknown> = {}) =>
    insertShort(t, { ownerId: users.owner.userId, teamId: TEAM, url: TARGET, ...fields });

  /** A verified domain of the team, known to the running app. */
  const teamDomain = async (): Promise<DomainEntity> => {
    const host = `t${randomBytes(4).toString('hex')}.team.example`;
    const d = t.ds.getRepository(DomainEntity).create({
      id: randomUUID(),
      host,
      verifiedHost: host,
      ownerId: users.owner.userId,
      teamId: TEAM,
      verified: true,
      enabled: true,
      homeRedirect: null,
      notFoundRedirect: null,
      token: randomBytes(24).toString('base64url'),
      checkedAt: null,
      failingSince: null,
      failReason: null,
      createdAt: new Date(),
    });
    await t.ds.getRepository(DomainEntity).insert(d);
    await t.app.get(DomainRegistry).changed(d.id);
    dns.answers.set(`_url-shorter.${host}`, {
      txt: [[`url-shorter-verify=${d.token}`]],
    });
    return d;
  };

  const status = async (res: Promise<Response>) => String((await res).status);

  /** A new link page of the team with one of its shorts (its body: pageBody). */
  const pageBody = async () => ({
    slug: `tp-${randomBytes(6).toString('hex')}`,
    title: 'Team-Links',
    team: TEAM,
    theme: 'auto',
    links: [{ shortId: (await teamShort()).id }],
  });
  const teamPage = async (): Promise<{ id: string }> => {
    const res = await users.owner.post('/api/pages', await pageBody());
    expect(res.status).toBe(201);
    return (await res.json()) as { id: string };
  };

  interface Row {
    /** The OpenAPI operation (`getOrFollowShort:ownerView` when a row reads more of one answer). */
    op: string;
    answers: Answers;
    call(u: LoggedIn, role: Role): Promise<string>;
  }

  const ROWS: Row[] = [
    // ------------------------------------------------------------ reading a short
    {
      op: 'getOrFollowShort',
      answers: readers('owner-view', 'public-view'),
      async call(u) {
        const s = await teamShort();
        const res = await u.fetch(`/api/code/${s.code}?redirect=false`);
        const body = (await res.json()) as Record<string, unknown>;
        if (res.status !== 200) return String(res.status);
        return 'uses' in body && 'team' in body ? 'owner-view' : 'public-view';
      },
    },
    {
      op: 'listOwnShorts',
      answers: readers('listed', '403'),
      async call(u) {
        const s = await teamShort();
        const res = await u.fetch(`/api/code?team=${TEAM}&size=100`);
        if (res.status !== 200) return String(res.status);
        const page = (await res.json()) as { content: Array<{ id: string; team: unknown }> };
        const row = page.content.find((r) => r.id === s.id);
        return row && JSON.stringify(row.team) === JSON.stringify({ id: TEAM, name: 'Marketing' })
          ? 'listed'
          : 'missing';
      },
    },
    {
      op: 'listOwnShorts:byTag',
      answers: readers('listed', '403'),
      async call(u) {
        const made = await users.owner.post('/api/code', {
          url: TARGET,
          team: TEAM,
          tags: ['Rechte'],
        });
        const { code } = (await made.json()) as { code: string };
        const res = await u.fetch(`/api/code?team=${TEAM}&tag=rechte&size=250`);
        if (res.status !== 200) return String(res.status);
        const page = (await res.json()) as { content: Array<{ code: string; tags: string[] }> };
        const row = page.content.find((r) => r.code === code);
        return row && row.tags.join() === 'Rechte' && page.content.every((r) => r.tags.length)
          ? 'listed'
          : 'missing';
      },
    },
    {
      // Not under /api/code, but a space's (the own list's rights).
      op: 'listTags',
      answers: readers('counted', '403'),
      async call(u) {
        await users.owner.post('/api/code', { url: TARGET, team: TEAM, tags: ['Zählen'] });
        const res = await u.fetch(`/api/tags?team=${TEAM}`);
        if (res.status !== 200) return String(res.status);
        const tags = (await res.json()) as Array<{ tag: string; count: number }>;
        return (tags.find((x) => x.tag === 'Zählen')?.count ?? 0) > 0 ? 'counted' : 'missing';
      },
    },
    {
      // Not under /api/code either: the statistics of a space's shorts that carry a tag.
      op: 'getTagStatistics',
      answers: readers('listed', '403'),
      async call(u) {
        const tag = `S${randomBytes(4).toString('hex')}`;
        const made = await users.owner.post('/api/code', { url: TARGET, team: TEAM, tags: [tag] });
        const { code } = (await made.json()) as { code: string };
        const res = await u.fetch(`/api/statistics?tag=${tag}&team=${TEAM}`);
        if (res.status !== 200) return String(res.status);
        const body = (await res.json()) as { shorts: Array<{ code: string }> };
        return body.shorts.map((x) => x.code).join() === code ? 'listed' : JSON.stringify(body);
      },
    },
    {
      op: 'getTagStatisticsCsv',
      answers: readers('csv', '403'),
      async call(u) {
        const res = await u.fetch(`/api/statistics.csv?tag=Rechte&team=${TEAM}`);
        if (res.status !== 200) return String(res.status);
        const csv = await res.text();
        return res.headers.get('content-type')?.startsWith('text/csv') &&
          csv.startsWith('start,visits,visitors,bots')
          ? 'csv'
          : csv.slice(0, 80);
      },
    },
    {
      op: 'exportShorts',
      answers: readers('exported', '403'),
      async call(u) {
        const s = await teamShort();
        const res = await u.fetch(`/api/code/export?format=json&team=${TEAM}`);
        if (res.status !== 200) return String(res.status);
        const rows = (await res.json()) as Array<{ id: string; team: string | null }>;
        return rows.find((r) => r.id === s.id)?.team === TEAM ? 'exported' : 'missing';
      },
    },
    {
      op: 'getShortStatistics',
      answers: readers('200', '403'),
      call: async (u) => status(u.fetch(`/api/code/${(await teamShort()).id}/statistics`)),
    },
    {
      op: 'getShortStatisticsCsv',
      answers: readers('200', '403'),
      call: async (u) => status(u.fetch(`/api/code/${(await teamShort()).id}/statistics.csv`)),
    },
    {
      op: 'listShortReports',
      answers: readers('200', '403'),
      call: async (u) => status(u.fetch(`/api/code/${(await teamShort()).id}/reports`)),
    },
    // Public: any visitor's answer, whatever his role.
    {
      op: 'getShortQrSvg',
      answers: all('200'),
      call: async (u) => status(u.fetch(`/api/code/${(await teamShort()).code}/qr.svg`)),
    },
    {
      op: 'getShortQrPng',
      answers: all('200'),
      call: async (u) => status(u.fetch(`/api/code/${(await teamShort()).code}/qr.png`)),
    },
    {
      op: 'getShortMetadata',
      answers: all('same'),
      async call(u) {
        const s = await teamShort();
        const mine = (await u.fetch(`/api/code/${s.code}/metadata`)).status;
        const anonymous = (await t.fetch(`/api/code/${s.code}/metadata`)).status;
        return mine === anonymous ? 'same' : `${mine} (anonymous ${anonymous})`;
      },
    },
    {
      op: 'followShort',
      answers: all('302'),
      call: async (u) => status(u.fetch(`/s/${(await teamShort()).code}`)),
    },
    {
      op: 'followShortWithPassword',
      answers: all('same'),
      async call(u) {
        const s = await teamShort();
        const init = (headers: Record<string, string>) => ({
          method: 'POST',
          headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
          body: 'password=wrong',
        });
        const mine = (await u.fetch(`/s/${s.code}`, init({}))).status;
        const anonymous = (await t.fetch(`/s/${s.code}`, init({}))).status;
        return mine === anonymous ? 'same' : `${mine} (anonymous ${anonymous})`;
      },
    },
    {
      op: 'reportShort',
      answers: all('200'),
      call: async (u) =>
        status(
          u.post(`/api/code/${(await teamShort()).code}/report`, {
            reason: 'SPAM',
            description: 'a report of any logged-in visitor',
          }),
        ),
    },
    // ------------------------------------------------------------ writing a short
    {
      op: 'createShort',
      answers: writers('201', '403'),
      call: (u) => status(u.post('/api/code', { url: 'https://example.com/new', team: TEAM })),
    },
    {
      op: 'createShort:onTeamDomain',
      answers: writers('201', '403'),
      async call(u) {
        const d = await teamDomain();
        return status(u.post('/api/code', { url: 'https://example.com/d', domain: d.host }));
      },
    },
    {
      op: 'importShorts',
      answers: writers('1 created', '403'),
      async call(u) {
        const res = await u.post('/api/code/import', {
          rows: [{ url: 'https://example.com/imported' }],
          team: TEAM,
        });
        if (res.status !== 200) return String(res.status);
        return `${((await res.json()) as { created: number }).created} created`;
      },
    },
    {
      op: 'updateShort',
      answers: writers('200', '403'),
      call: async (u) => status(u.patch(`/api/code/${(await teamShort()).id}`, { name: 'New' })),
    },
    {
      op: 'updateShort:moveOut',
      answers: writers('mine', '403'),
      async call(u) {
        const s = await teamShort();
        const res = await u.patch(`/api/code/${s.id}`, { team: null });
        if (res.status !== 200) return String(res.status);
        const body = (await res.json()) as { team: unknown; owner: { id: string } };
        return body.team === null && body.owner.id === u.userId ? 'mine' : JSON.stringify(body);
      },
    },
    {
      op: 'updateShort:tags',
      answers: writers('tagged', '403'),
      async call(u) {
        const s = await teamShort();
        const res = await u.patch(`/api/code/${s.id}`, { tags: ['Team', 'neu'] });
        if (res.status !== 200) return String(res.status);
        const spaces = await t.query('SELECT DISTINCT space FROM short_tags WHERE short_id = ?', [
          s.id,
        ]);
        return ((await res.json()) as { tags: string[] }).tags.join() === 'Team,neu' &&
          spaces.length === 1 &&
          spaces[0].space === `t:${TEAM}`
          ? 'tagged'
          : JSON.stringify(spaces);
      },
    },
    {
      op: 'updateShort:moveIn',
      answers: writers('moved', '403'),
      async call(u) {
        const s = await insertShort(t, { ownerId: u.userId, url: TARGET });
        const res = await u.patch(`/api/code/${s.id}`, { team: TEAM });
        if (res.status !== 200) return String(res.status);
        return ((await res.json()) as { team: { id: string } }).team.id === TEAM
          ? 'moved'
          : 'not moved';
      },
    },
    {
      op: 'bulkEditShorts',
      answers: writers('changed', '403'),
      async call(u) {
        const s = await teamShort();
        const res = await u.post('/api/code/bulk', {
          ids: [s.id],
          set: { maxUses: 5 },
          addTags: ['Team'],
        });
        if (res.status !== 200) return String(res.status);
        const body = (await res.json()) as { changed: string[] };
        const [row] = await t.query('SELECT max_uses, tags FROM shorts WHERE id = ?', [s.id]);
        return body.changed[0] === s.id && Number(row.max_uses) === 5 && row.tags === 'Team'
          ? 'changed'
          : JSON.stringify(row);
      },
    },
    {
      op: 'bulkEditShorts:delete',
      answers: writers('deleted', '403'),
      async call(u) {
        const s = await teamShort();
        const res = await u.post('/api/code/bulk', { ids: [s.id], delete: true });
        if (res.status !== 200) return String(res.status);
        const rows = await t.query('SELECT id FROM shorts WHERE id = ?', [s.id]);
        return rows.length === 0 ? 'deleted' : 'still there';
      },
    },
    {
      op: 'bulkEditShorts:moveOut',
      answers: writers('mine', '403'),
      async call(u) {
        const s = await teamShort();
        const res = await u.post('/api/code/bulk', { ids: [s.id], set: { team: null } });
        if (res.status !== 200) return String(res.status);
        const [row] = await t.query('SELECT team_id, owner_id FROM shorts WHERE id = ?', [s.id]);
        return row.team_id === null && row.owner_id === u.userId ? 'mine' : JSON.stringify(row);
      },
    },
    {
      op: 'checkShortHealth',
      answers: writers('200', '403'),
      call: async (u) => status(u.post(`/api/code/${(await teamShort()).id}/health`, {})),
    },
    {
      op: 'deleteShort',
      answers: writers('204', '403'),
      call: async (u) => status(u.delete(`/api/code/${(await teamShort()).id}`)),
    },
    // ------------------------------------------------------------ domains
    {
      op: 'listDomains',
      answers: readers('listed', 'absent'),
      async call(u) {
        const d = await teamDomain();
        const res = await u.fetch('/api/domains');
        if (res.status !== 200) return String(res.status);
        const rows = (await res.json()) as Array<{ id: string; team: { id: string } | null }>;
        return rows.find((r) => r.id === d.id)?.team?.id === TEAM ? 'listed' : 'absent';
      },
    },
    {
      op: 'domainAllowed',
      answers: all('200'),
      call: async (u) =>
        status(u.fetch(`/api/domains/allowed?domain=${(await teamDomain()).host}`)),
    },
    {
      op: 'createDomain',
      answers: writers('201', '403'),
      call: (u) =>
        status(
          u.post('/api/domains', {
            host: `n${randomBytes(4).toString('hex')}.example`,
            team: TEAM,
          }),
        ),
    },
    {
      op: 'updateDomain',
      answers: writers('200', '403'),
      call: async (u) =>
        status(
          u.patch(`/api/domains/${(await teamDomain()).id}`, {
            homeRedirect: 'https://example.com/home',
          }),
        ),
    },
    {
      op: 'verifyDomain',
      answers: writers('200', '403'),
      call: async (u) => status(u.post(`/api/domains/${(await teamDomain()).id}/verify`, {})),
    },
    {
      op: 'deleteDomain',
      answers: writers('204', '403'),
      call: async (u) => status(u.delete(`/api/domains/${(await teamDomain()).id}`)),
    },
    // ------------------------------------------------------------ UTM templates
    {
      op: 'listUtmTemplates',
      answers: readers('listed', '403'),
      async call(u) {
        const made = await users.owner.post('/api/utm-templates', { name: 'Liste', team: TEAM });
        const { id } = (await made.json()) as { id: string };
        const res = await u.fetch(`/api/utm-templates?team=${TEAM}`);
        if (res.status !== 200) return String(res.status);
        const rows = (await res.json()) as Array<{ id: string }>;
        await users.owner.delete(`/api/utm-templates/${id}`);
        return rows.some((r) => r.id === id) ? 'listed' : 'missing';
      },
    },
    {
      op: 'createUtmTemplate',
      answers: writers('201', '403'),
      async call(u) {
        const res = await u.post('/api/utm-templates', { name: 'Neu', source: 'x', team: TEAM });
        if (res.status === 201) {
          await u.delete(`/api/utm-templates/${((await res.json()) as { id: string }).id}`);
        }
        return String(res.status);
      },
    },
    {
      op: 'deleteUtmTemplate',
      answers: writers('204', '403'),
      async call(u) {
        const made = await users.owner.post('/api/utm-templates', { name: 'Weg', team: TEAM });
        const { id } = (await made.json()) as { id: string };
        const res = await u.delete(`/api/utm-templates/${id}`);
        if (res.status !== 204) await users.owner.delete(`/api/utm-templates/${id}`);
        return String(res.status);
      },
    },
    {
      op: 'updateDomain:homePage',
      answers: writers('200', '403'),
      call: async (u) =>
        status(
          u.patch(`/api/domains/${(await teamDomain()).id}`, { homePage: (await teamPage()).id }),
        ),
    },
    // ------------------------------------------------------------ link pages
    {
      op: 'listPages',
      answers: readers('listed', '403'),
      async call(u) {
        const p = await teamPage();
        const res = await u.fetch(`/api/pages?team=${TEAM}`);
        if (res.status !== 200) return String(res.status);
        const ids = ((await res.json()) as Array<{ id: string }>).map((x) => x.id);
        return ids.includes(p.id) ? 'listed' : 'missing';
      },
    },
    {
      op: 'createPage',
      answers: writers('201', '403'),
      call: async (u) => status(u.post('/api/pages', await pageBody())),
    },
    {
      op: 'getPage',
      answers: readers('200', '403'),
      call: async (u) => status(u.fetch(`/api/pages/${(await teamPage()).id}`)),
    },
    {
      op: 'updatePage',
      answers: writers('200', '403'),
      call: async (u) =>
        status(u.patch(`/api/pages/${(await teamPage()).id}`, { title: 'Neuer Titel' })),
    },
    {
      op: 'deletePage',
      answers: writers('204', '403'),
      call: async (u) => status(u.delete(`/api/pages/${(await teamPage()).id}`)),
    },
    {
      op: 'getPageStatistics',
      answers: readers('200', '403'),
      call: async (u) => status(u.fetch(`/api/pages/${(await teamPage()).id}/statistics`)),
    },
  ];

  for (const row of ROWS) {
    it(`${row.op}: ${ROLES.map((r) => `${r} ${row.answers[r]}`).join(', ')}`, async () => {
      const got = {} as Answers;
      for (const role of ROLES) got[role] = await row.call(users[role], role);
      expect(got).toEqual(row.answers);
    });
  }

  it('a viewer is refused writes with the keys the web client translates', async () => {
    const s = await teamShort();
    const edit = await users.viewer.patch(`/api/code/${s.id}`, { name: 'x' });
    expect(((await edit.json()) as { errorKey: string }).errorKey).toBe('not_owner');
    const create = await users.viewer.post('/api/code', {
      url: 'https://example.com/',
      team: TEAM,
    });
    expect(((await create.json()) as { errorKey: string }).errorKey).toBe('team_forbidden');
    const list = await users.outsider.fetch(`/api/code?team=${TEAM}`);
    expect(((await list.json()) as { errorKey: string }).errorKey).toBe('team_forbidden');
  });

  it("the team's shorts are not in anybody's own space, and own shorts not in the team's", async () => {
    const s = await teamShort();
    const own = (await (await users.owner.fetch('/api/code?size=100')).json()) as {
      content: Array<{ id: string }>;
    };
    expect(own.content.map((r) => r.id)).not.toContain(s.id);
    const mine = await insertShort(t, { ownerId: users.owner.userId, url: TARGET });
    const team = (await (await users.owner.fetch(`/api/code?team=${TEAM}&size=100`)).json()) as {
      content: Array<{ id: string }>;
    };
    expect(team.content.map((r) => r.id)).toContain(s.id);
    expect(team.content.map((r) => r.id)).not.toContain(mine.id);
  });

  it("an export's team column comes back on import only for those who may write to the team", async () => {
    await teamShort({ code: `rt-${randomBytes(3).toString('hex')}` });
    const exported = (await (
      await users.owner.fetch(`/api/code/export?format=json&team=${TEAM}`)
    ).json()) as Array<Record<string, unknown>>;
    expect(exported.length).toBeGreaterThan(0);
    expect(exported.every((r) => r.team === TEAM)).toBe(true);
    const rows = exported.slice(0, 3).map((r) => ({
      url: r.url,
      team: r.team,
      code: `${String(r.code).slice(0, 40)}-copy`,
    }));
    const refused = await users.outsider.post('/api/code/import', { rows });
    const result = (await refused.json()) as {
      created: number;
      skipped: Array<{ errorKey: string }>;
    };
    expect(result.created).toBe(0);
    expect(result.skipped.map((s) => s.errorKey)).toEqual(rows.map(() => 'team_forbidden'));
    const taken = await users.editor.post('/api/code/import', { rows });
    expect(((await taken.json()) as { created: number }).created).toBe(rows.length);
    const team = (await (await users.viewer.fetch(`/api/code?team=${TEAM}&size=100`)).json()) as {
      content: Array<{ code: string }>;
    };
    for (const r of rows) expect(team.content.map((s) => s.code)).toContain(r.code);
  });

  it("a team's key acts for its team only: creates go there, lists read it, its creator's own shorts are out of reach", async () => {
    const created = await users.editor.post('/api/self/apikeys', {
      name: 'build server',
      scopes: ['shorts:read', 'shorts:write'],
      team: TEAM,
    });
    expect(created.status).toBe(201);
    const { key } = (await created.json()) as { key: string };
    const bearer = (init: RequestInit = {}) => ({
      ...init,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    });
    const made = await t.fetch(
      '/api/code',
      bearer({ method: 'POST', body: JSON.stringify({ url: 'https://example.com/ci' }) }),
    );
    expect(made.status).toBe(201);
    const { code } = (await made.json()) as { code: string };
    const listed = (await (await t.fetch('/api/code?size=100', bearer())).json()) as {
      content: Array<{ id: string; code: string; team: { id: string } | null }>;
    };
    expect(listed.content.find((s) => s.code === code)?.team?.id).toBe(TEAM);
    expect(listed.content.every((s) => s.team?.id === TEAM)).toBe(true);
    // The editor's own short: his session may change it, his team's key may not.
    const own = await insertShort(t, { ownerId: users.editor.userId, url: TARGET });
    const edit = await t.fetch(
      `/api/code/${own.id}`,
      bearer({ method: 'PATCH', body: JSON.stringify({ name: 'x' }) }),
    );
    expect(edit.status).toBe(403);
    // Out of the team (into the creator's own space) is refused to a team's key.
    const id = listed.content.find((s) => s.code === code)!;
    const moveOut = await t.fetch(
      `/api/code/${id.id}`,
      bearer({ method: 'PATCH', body: JSON.stringify({ team: null }) }),
    );
    expect(moveOut.status).toBe(403);
    expect(((await moveOut.json()) as { errorKey: string }).errorKey).toBe('team_forbidden');
    const elsewhere = await t.fetch(
      '/api/code?team=00000000-0000-4000-8000-000000000000',
      bearer(),
    );
    expect(elsewhere.status).toBe(403);
  });

  it('the table has a row for every operation on shorts, domains, tags and their statistics (a new endpoint adds its row)', () => {
    const doc = JSON.parse(readFileSync(join(__dirname, '../../openapi/openapi.json'), 'utf8')) as {
      paths: Record<string, Record<string, { operationId?: string }>>;
    };
    const operations = Object.entries(doc.paths)
      .filter(([path]) =>
        /^\/(api\/code|api\/domains|api\/statistics|api\/tags|api\/utm-templates|api\/pages|s\/)/.test(
          path,
        ),
      )
      .flatMap(([, ops]) => Object.values(ops).map((o) => o.operationId))
      .filter((id): id is string => typeof id === 'string');
    const covered = new Set(ROWS.map((r) => r.op.split(':')[0]));
    expect(operations.filter((op) => !covered.has(op))).toEqual([]);
    expect(operations.length).toBeGreaterThan(20);
  });
});
