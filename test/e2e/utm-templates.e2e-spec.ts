import { describe, expect, it } from 'vitest';
import { LIMIT_UTM_TEMPLATES } from '../../src/shared/utm';
import { createTestApp, useTestApp } from '../support/app';
import { type LoggedIn, loginAs, useLogin } from '../support/login';
import { expectProblem } from '../support/problem';
import { countOf, expectCapHoldsUnderRace } from '../support/caps';

interface Template {
  id: string;
  name: string;
  source: string | null;
  medium: string | null;
  campaign: string | null;
  term: string | null;
  content: string | null;
  team: { id: string; name: string } | null;
  createdAt: string;
}

const listOf = async (u: LoggedIn, query = ''): Promise<Template[]> => {
  const res = await u.fetch(`/api/utm-templates${query}`);
  expect(res.status).toBe(200);
  return (await res.json()) as Template[];
};

/** UTM templates (CONTRACT "Marketing links", bullet "UTM"; "Counted caps"; "Teams"; "API keys"). */
describe('UTM templates', () => {
  const t = useTestApp({ AUTH_DEV_LOGIN: 'true', ADMIN_USERS: 'dev:admin' });
  const alice = useLogin(t, 'alice');
  const bob = useLogin(t, 'bob');

  it('create, list and delete an own template; empty values are stored as null', async () => {
    const res = await alice.post('/api/utm-templates', {
      name: 'Newsletter Herbst',
      source: 'newsletter',
      medium: 'email',
      campaign: 'herbst 2026 & mehr',
      term: '',
    });
    expect(res.status).toBe(201);
    const made = (await res.json()) as Template;
    expect(made).toMatchObject({
      name: 'Newsletter Herbst',
      source: 'newsletter',
      medium: 'email',
      campaign: 'herbst 2026 & mehr',
      term: null,
      content: null,
      team: null,
    });
    expect(Date.parse(made.createdAt)).not.toBeNaN();
    expect((await listOf(alice)).map((x) => x.id)).toContain(made.id);
    // Another user neither sees nor deletes it.
    expect((await listOf(bob)).map((x) => x.id)).not.toContain(made.id);
    const refused = await bob.delete(`/api/utm-templates/${made.id}`);
    expect((await expectProblem(refused, 403)).errorKey).toBe('not_owner');
    expect((await alice.delete(`/api/utm-templates/${made.id}`)).status).toBe(204);
    expect((await listOf(alice)).map((x) => x.id)).not.toContain(made.id);
    const gone = await alice.delete(`/api/utm-templates/${made.id}`);
    expect((await expectProblem(gone, 404)).errorKey).toBe('entity_not_exists');
    expect((await expectProblem(await alice.delete('/api/utm-templates/nope'), 400)).errorKey).toBe(
      'id_invalid',
    );
  });

  it('anonymous callers get 401', async () => {
    expect((await t.fetch('/api/utm-templates')).status).toBe(401);
    const res = await t.fetch('/api/utm-templates', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'x' }),
    });
    expect([401, 403]).toContain(res.status);
  });

  it('refuses bad names and values with fieldErrors and their keys; nothing is written', async () => {
    const before = (await listOf(alice)).length;
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{}, 'name', 'name_invalid'],
      [{ name: '' }, 'name', 'name_invalid'],
      [{ name: '   ' }, 'name', 'name_invalid'],
      [{ name: 'x'.repeat(65) }, 'name', 'name_invalid'],
      [{ name: 'a\u0007b' }, 'name', 'name_invalid'],
      [{ name: 'ok', source: 'x'.repeat(201) }, 'source', 'field_invalid'],
      [{ name: 'ok', medium: 'line\nbreak' }, 'medium', 'field_invalid'],
      [{ name: 'ok', campaign: 'c1\u0085' }, 'campaign', 'field_invalid'],
      [{ name: 'ok', term: 5 }, 'term', 'field_invalid'],
      [{ name: 'ok', content: ['a'] }, 'content', 'field_invalid'],
    ];
    for (const [body, field, key] of cases) {
      const res = await alice.post('/api/utm-templates', body);
      const p = (await expectProblem(res, 400)) as { fieldErrorKeys?: Record<string, string> } & {
        fieldErrors?: Record<string, string>;
      };
      expect(Object.keys(p.fieldErrors ?? {}), JSON.stringify(body)).toContain(field);
      expect(p.fieldErrorKeys?.[field], JSON.stringify(body)).toBe(key);
    }
    const unknown = await alice.post('/api/utm-templates', { name: 'ok', utm_source: 'x' });
    expect((await expectProblem(unknown, 400)).fieldErrors).toHaveProperty('utm_source');
    // The longest values pass.
    const longest = await alice.post('/api/utm-templates', {
      name: 'n'.repeat(64),
      source: 'ü'.repeat(200),
    });
    expect(longest.status).toBe(201);
    const made = (await longest.json()) as Template;
    expect(made.source).toBe('ü'.repeat(200));
    expect((await listOf(alice)).length).toBe(before + 1);
    await alice.delete(`/api/utm-templates/${made.id}`);
  });

  it(`at most ${LIMIT_UTM_TEMPLATES} per user, also when created at once (409 quota_exceeded)`, async () => {
    const erin = await loginAs(t, 'erin');
    await expectCapHoldsUnderRace({
      tries: LIMIT_UTM_TEMPLATES + 4,
      created: LIMIT_UTM_TEMPLATES,
      cap: LIMIT_UTM_TEMPLATES,
      create: (i) => erin.post('/api/utm-templates', { name: `T${i}`, source: 's' }),
      stored: async () =>
        countOf(
          await t.query('SELECT COUNT(*) AS n FROM utm_templates WHERE owner_id = ?', [
            erin.userId,
          ]),
        ),
    });
    // One deleted: one more fits.
    const [first] = await listOf(erin);
    expect((await erin.delete(`/api/utm-templates/${first.id}`)).status).toBe(204);
    expect((await erin.post('/api/utm-templates', { name: 'again' })).status).toBe(201);
  });

  it("teams: editors and owners write, viewers read, strangers neither; a team's cap is its own", async () => {
    const team = (await (await alice.post('/api/teams', { name: 'Kampagnen' })).json()) as {
      id: string;
    };
    const join = async (u: LoggedIn, role: string) => {
      const inv = (await (await alice.post(`/api/teams/${team.id}/invites`, { role })).json()) as {
        token: string;
      };
      expect((await u.post(`/api/invites/${inv.token}`, {})).status).toBe(200);
    };
    const carol = await loginAs(t, 'carol');
    const dave = await loginAs(t, 'dave');
    await join(carol, 'editor');
    await join(dave, 'viewer');
    const byViewer = await dave.post('/api/utm-templates', { name: 'v', team: team.id });
    expect((await expectProblem(byViewer, 403)).errorKey).toBe('team_forbidden');
    const byStranger = await bob.post('/api/utm-templates', { name: 'b', team: team.id });
    expect((await expectProblem(byStranger, 403)).errorKey).toBe('team_forbidden');
    const res = await carol.post('/api/utm-templates', {
      name: 'Team',
      source: 'linkedin',
      team: team.id,
    });
    expect(res.status).toBe(201);
    const tt = (await res.json()) as Template;
    expect(tt.team).toEqual({ id: team.id, name: 'Kampagnen' });
    // Members see it in their list (with and without ?team=); a stranger is refused the team.
    expect((await listOf(dave)).map((x) => x.id)).toContain(tt.id);
    expect((await listOf(dave, `?team=${team.id}`)).map((x) => x.id)).toEqual([tt.id]);
    expect((await listOf(alice)).map((x) => x.id)).toContain(tt.id);
    expect((await listOf(bob)).map((x) => x.id)).not.toContain(tt.id);
    const strangerList = await bob.fetch(`/api/utm-templates?team=${team.id}`);
    expect((await expectProblem(strangerList, 403)).errorKey).toBe('team_forbidden');
    // ?team= lists only the team's, not the caller's own.
    const own = (await (
      await carol.post('/api/utm-templates', { name: 'mine' })
    ).json()) as Template;
    expect((await listOf(carol, `?team=${team.id}`)).map((x) => x.id)).not.toContain(own.id);
    // A viewer may not delete, an editor may.
    expect((await dave.delete(`/api/utm-templates/${tt.id}`)).status).toBe(403);
    expect((await carol.delete(`/api/utm-templates/${tt.id}`)).status).toBe(204);
    // The team's cap counts the team's templates, not the members' own ones.
    const filled = await Promise.all(
      Array.from({ length: LIMIT_UTM_TEMPLATES + 1 }, (_, i) =>
        alice.post('/api/utm-templates', { name: `t${i}`, team: team.id }),
      ),
    );
    expect(filled.filter((r) => r.status === 201)).toHaveLength(LIMIT_UTM_TEMPLATES);
    expect((await carol.post('/api/utm-templates', { name: 'one more own' })).status).toBe(201);
    // Deleting the team is not held up by its templates; they go with it.
    expect((await alice.delete(`/api/teams/${team.id}`)).status).toBe(204);
    const left = await t.query<Array<{ n: number | string }>>(
      'SELECT COUNT(*) AS n FROM utm_templates WHERE team_id = ?',
      [team.id],
    );
    expect(Number(left[0].n)).toBe(0);
  });

  it('API keys: reading needs shorts:read, writing shorts:write; a team key works in its team', async () => {
    const keyOf = async (body: Record<string, unknown>) => {
      const res = await bob.post('/api/self/apikeys', body);
      expect(res.status, await res.clone().text()).toBe(201);
      return ((await res.json()) as { key: string }).key;
    };
    const call = (key: string, method: string, path: string, body?: unknown) =>
      t.fetch(path, {
        method,
        headers: {
          authorization: `Bearer ${key}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    const reader = await keyOf({ name: 'utm-reader', scopes: ['shorts:read'] });
    const writer = await keyOf({ name: 'utm-writer', scopes: ['shorts:write'] });
    const other = await keyOf({ name: 'utm-stats', scopes: ['statistics:read'] });
    const made = await call(writer, 'POST', '/api/utm-templates', { name: 'by key' });
    expect(made.status).toBe(201);
    const tpl = (await made.json()) as Template;
    const read = await call(reader, 'GET', '/api/utm-templates');
    expect(read.status).toBe(200);
    expect(((await read.json()) as Template[]).map((x) => x.id)).toContain(tpl.id);
    const noWrite = await call(reader, 'POST', '/api/utm-templates', { name: 'x' });
    expect((await expectProblem(noWrite, 403)).errorKey).toBe('scope_missing');
    const noDelete = await call(reader, 'DELETE', `/api/utm-templates/${tpl.id}`);
    expect((await expectProblem(noDelete, 403)).errorKey).toBe('scope_missing');
    const noRead = await call(writer, 'GET', '/api/utm-templates');
    expect((await expectProblem(noRead, 403)).errorKey).toBe('scope_missing');
    expect((await call(other, 'GET', '/api/utm-templates')).status).toBe(403);
    expect((await call(writer, 'DELETE', `/api/utm-templates/${tpl.id}`)).status).toBe(204);

    // A team's key: its creates go to its team, its list is its team's only.
    const team = (await (await bob.post('/api/teams', { name: 'Key team' })).json()) as {
      id: string;
    };
    const own = (await (await bob.post('/api/utm-templates', { name: 'own' })).json()) as Template;
    const teamKey = await keyOf({
      name: 'utm-team',
      scopes: ['shorts:read', 'shorts:write'],
      team: team.id,
    });
    const inTeam = (await (
      await call(teamKey, 'POST', '/api/utm-templates', { name: 'team by key' })
    ).json()) as Template;
    expect(inTeam.team?.id).toBe(team.id);
    const listed = (await (await call(teamKey, 'GET', '/api/utm-templates')).json()) as Template[];
    expect(listed.map((x) => x.id)).toEqual([inTeam.id]);
    expect((await call(teamKey, 'DELETE', `/api/utm-templates/${own.id}`)).status).toBe(403);
  });

  it('deleting a user takes his own templates with him', async () => {
    const admin = await loginAs(t, 'admin');
    const frank = await loginAs(t, 'frank');
    expect((await frank.post('/api/utm-templates', { name: 'f' })).status).toBe(201);
    expect((await admin.delete(`/api/admin/entity/users/${frank.userId}`)).status).toBe(204);
    const left = await t.query<Array<{ n: number | string }>>(
      'SELECT COUNT(*) AS n FROM utm_templates WHERE owner_id = ?',
      [frank.userId],
    );
    expect(Number(left[0].n)).toBe(0);
  });
});

describe('UTM templates: the creates’ rate limit', () => {
  it('counts against LIMIT_USER_CREATE (429 rate_limited)', async () => {
    const t = await createTestApp({ AUTH_DEV_LOGIN: 'true', LIMIT_USER_CREATE: '2/min' });
    try {
      const u = await loginAs(t, 'gina');
      expect((await u.post('/api/utm-templates', { name: 'a' })).status).toBe(201);
      expect((await u.post('/api/utm-templates', { name: 'b' })).status).toBe(201);
      const third = await u.post('/api/utm-templates', { name: 'c' });
      expect((await expectProblem(third, 429)).errorKey).toBe('rate_limited');
      expect((await listOf(u)).length).toBe(2);
    } finally {
      await t.close();
    }
  });
});
