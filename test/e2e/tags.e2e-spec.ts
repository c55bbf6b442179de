import { parse } from 'csv-parse/sync';
import { randomBytes, randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { DomainRegistry } from '../../src/domains/domain-registry';
import { DomainEntity } from '../../src/domains/domain.entity';
import type { ShortDto } from '../../src/shorts/dto/short.dto';
import { TeamEntity, TeamMemberEntity } from '../../src/teams/team.entity';
import { useTestApp } from '../support/app';
import { TEST_DB_KIND } from '../support/database';
import { PgNamedStatements } from '../../src/database/pg-named';
import { loginAs, type LoggedIn, useLogin } from '../support/login';
import { expectProblem } from '../support/problem';
import { analyzeTables, createShort, insertShorts, insertTagRows } from '../support/shorts';

interface Problem {
  errorKey?: string;
  fieldErrors?: Record<string, string>;
  fieldErrorKeys?: Record<string, string>;
  fieldErrorPaths?: Record<string, Array<string | number>>;
}
/** A row of MariaDB's EXPLAIN, as the plan tests read it. */
interface MariaPlanRow {
  select_type: string;
  table: string;
  type: string;
  key: string | null;
  Extra: string | null;
}

interface Page {
  content: ShortDto[];
  totalElements: number;
}
interface TagCount {
  tag: string;
  count: number;
}
interface ImportResult {
  created: number;
  skipped: Array<{ row: number; code: string | null; reason: string; errorKey: string }>;
}

/**
 * Tags (CONTRACT "Tags and bulk edits"): the field (normalised, its limits and keys, logged-in
 * only), `short_tags` written with the short on every write (create, import, edit, a move to
 * another space, an admin's edit; gone with the short), the list's `tag` filter and the counts of
 * `GET /api/tags` per space.
 */
describe('tags', () => {
  const t = useTestApp({ AUTH_DEV_LOGIN: 'true', ADMIN_USERS: 'dev:admin' });
  const alice = useLogin(t, 'alice');
  const bob = useLogin(t, 'bob');
  const vera = useLogin(t, 'vera');
  const admin = useLogin(t, 'admin');
  /** A team: alice owner, vera viewer; bob is no member. */
  const TEAM = randomUUID();

  beforeAll(async () => {
    await t.ds
      .getRepository(TeamEntity)
      .insert({ id: TEAM, name: 'Kampagnen', createdAt: new Date() });
    await t.ds.getRepository(TeamMemberEntity).insert([
      { teamId: TEAM, userId: alice.userId, role: 'owner', joinedAt: new Date() },
      { teamId: TEAM, userId: vera.userId, role: 'viewer', joinedAt: new Date() },
    ]);
  });

  /** A tag no other test uses (the tests share one database). */
  const fresh = (name: string) => `${name}-${randomBytes(3).toString('hex')}`;

  /** The short's tag rows, by key. */
  const rowsOf = async (id: string) =>
    (await t.query('SELECT tag, label, space FROM short_tags WHERE short_id = ? ORDER BY tag', [
      id,
    ])) as Array<{ tag: string; label: string; space: string }>;
  const columnOf = async (id: string) =>
    ((await t.query('SELECT tags FROM shorts WHERE id = ?', [id]))[0]?.tags as string | null) ??
    null;
  const info = async (u: LoggedIn, code: string) => {
    const res = await u.fetch(`/api/code/${code}?redirect=false`);
    expect(res.status).toBe(200);
    return (await res.json()) as ShortDto;
  };
  const list = async (u: LoggedIn, query: string) => {
    const res = await u.fetch(`/api/code?size=100&${query}`);
    expect(res.status, await res.clone().text()).toBe(200);
    return (await res.json()) as Page;
  };
  const codesOf = (page: Page) => page.content.map((s) => s.code).sort();
  const counts = async (u: LoggedIn, query = '') => {
    const res = await u.fetch(`/api/tags${query}`);
    expect(res.status, await res.clone().text()).toBe(200);
    return (await res.json()) as TagCount[];
  };
  const refused = async (res: Response) => (await expectProblem(res, 400)) as Problem;

  it('normalises the tags of a create (trimmed, one per key, the first spelling), shows them to the owner only', async () => {
    const s = await createShort(alice, {
      tags: [' Herbst ', 'herbst', 'Sale', 'HERBST', 'a b.c_d-e'],
    });
    expect(s.short.tags).toEqual(['Herbst', 'Sale', 'a b.c_d-e']);
    expect(await columnOf(s.id)).toBe('Herbst,Sale,a b.c_d-e');
    expect(await rowsOf(s.id)).toEqual([
      { tag: 'a b.c_d-e', label: 'a b.c_d-e', space: `u:${alice.userId}` },
      { tag: 'herbst', label: 'Herbst', space: `u:${alice.userId}` },
      { tag: 'sale', label: 'Sale', space: `u:${alice.userId}` },
    ]);
    // Strangers see the short but not its tags.
    expect('tags' in (await info(bob, s.code))).toBe(false);
    const anonymous = (await (
      await t.fetch(`/api/code/${s.code}?redirect=false`)
    ).json()) as object;
    expect('tags' in anonymous).toBe(false);
    // No tags: an empty list, no rows, no column.
    const none = await createShort(alice, { tags: [] });
    expect(none.short.tags).toEqual([]);
    expect(await columnOf(none.id)).toBeNull();
    expect(await rowsOf(none.id)).toEqual([]);
    expect((await createShort(alice, { tags: null })).short.tags).toEqual([]);
    // Unicode letters and digits; ten distinct after duplicates are one.
    const ten = Array.from({ length: 10 }, (_, i) => `Straße ${i}`);
    const many = await createShort(alice, { tags: [...ten, 'STRAßE 0', 'straße 1'] });
    expect(many.short.tags).toEqual(ten);
    expect(await rowsOf(many.id)).toHaveLength(10);
  });

  it('refuses tags beyond the limits with their keys, and writes nothing', async () => {
    const before = Number((await t.query('SELECT COUNT(*) AS n FROM shorts'))[0].n);
    const cases: Array<[unknown, string, string | undefined]> = [
      [Array.from({ length: 11 }, (_, i) => `t${i}`), 'too_many_tags', undefined],
      [Array.from({ length: 51 }, () => 'same'), 'too_many_tags', undefined],
      [['ok', 'a#b'], 'tag_invalid', 'tag 2'],
      [['a,b'], 'tag_invalid', 'tag 1'],
      [['   '], 'tag_invalid', 'tag 1'],
      [['x'.repeat(33)], 'tag_invalid', 'tag 1'],
      [['x'.repeat(101)], 'tag_invalid', undefined],
      [[7], 'tag_invalid', undefined],
      ['a,b', 'tag_invalid', undefined],
    ];
    for (const [tags, key, sentence] of cases) {
      const res = await alice.post('/api/code', { url: 'https://example.com/t', tags });
      const p = await refused(res);
      expect(p.fieldErrorKeys?.tags, JSON.stringify(tags)).toBe(key);
      if (sentence) expect(p.fieldErrors?.tags).toMatch(new RegExp(`^${sentence} must be 1 to 32`));
    }
    const located = await refused(
      await alice.post('/api/code', { url: 'https://example.com/t', tags: ['ok', 'no!'] }),
    );
    expect(located.fieldErrorPaths?.tags).toEqual(['tags', 1]);
    expect(Number((await t.query('SELECT COUNT(*) AS n FROM shorts'))[0].n)).toBe(before);
    // An edit is refused alike and keeps the tags.
    const s = await createShort(alice, { tags: ['keep'] });
    const edit = await refused(await alice.patch(`/api/code/${s.id}`, { tags: ['a', 'b#'] }));
    expect(edit.fieldErrorKeys?.tags).toBe('tag_invalid');
    expect(await columnOf(s.id)).toBe('keep');
  });

  it('anonymous callers may not set tags', async () => {
    const res = await t.post('/api/code', { url: 'https://example.com/a', tags: ['x'] });
    const p = await refused(res);
    expect(p.fieldErrorKeys).toEqual({ tags: 'field_not_allowed' });
    // null (or absent) is no tag: allowed.
    expect((await t.post('/api/code', { url: 'https://example.com/a', tags: null })).status).toBe(
      201,
    );
    expect((await t.fetch('/api/tags')).status).toBe(401);
  });

  it('PATCH replaces the tags (rows too), keeps them on other edits, clears them with null or []', async () => {
    const s = await createShort(alice, { tags: ['Alpha', 'beta'] });
    const patch = async (body: Record<string, unknown>) => {
      const res = await alice.patch(`/api/code/${s.id}`, body);
      expect(res.status, await res.clone().text()).toBe(200);
      return (await res.json()) as ShortDto;
    };
    expect((await patch({ tags: ['BETA', 'Gamma'] })).tags).toEqual(['BETA', 'Gamma']);
    expect(await rowsOf(s.id)).toEqual([
      { tag: 'beta', label: 'BETA', space: `u:${alice.userId}` },
      { tag: 'gamma', label: 'Gamma', space: `u:${alice.userId}` },
    ]);
    expect((await patch({ name: 'Umbenannt' })).tags).toEqual(['BETA', 'Gamma']);
    expect(await rowsOf(s.id)).toHaveLength(2);
    expect((await patch({ tags: null })).tags).toEqual([]);
    expect(await rowsOf(s.id)).toEqual([]);
    expect(await columnOf(s.id)).toBeNull();
    await patch({ tags: ['x'] });
    expect((await patch({ tags: [] })).tags).toEqual([]);
    expect(await rowsOf(s.id)).toEqual([]);
    // Tags and a new code in one edit; a taken code changes neither.
    const other = await createShort(alice, { code: `taken-${randomBytes(3).toString('hex')}` });
    const clash = await alice.patch(`/api/code/${s.id}`, { tags: ['neu'], code: other.code });
    expect((await expectProblem(clash, 409)).errorKey).toBe('code_exists');
    expect(await rowsOf(s.id)).toEqual([]);
    const code = `renamed-${randomBytes(3).toString('hex')}`;
    expect(await patch({ tags: ['neu'], code })).toMatchObject({ code, tags: ['neu'] });
  });

  it('concurrent edits of one short’s tags take turns: the rows always match the column', async () => {
    const s = await createShort(alice, { tags: ['start'] });
    const sets = Array.from({ length: 6 }, (_, i) => [`c${i}`, `shared`, `d${i}`]);
    const answers = await Promise.all(
      sets.map((tags) => alice.patch(`/api/code/${s.id}`, { tags })),
    );
    expect(answers.map((r) => r.status)).toEqual(sets.map(() => 200));
    const column = (await columnOf(s.id))!.split(',');
    expect(sets.map((x) => x.join(','))).toContain(column.join(','));
    expect((await rowsOf(s.id)).map((r) => r.label).sort()).toEqual([...column].sort());
  });

  it('lists the shorts that carry all of the given tags, by key, in the listed space only', async () => {
    const red = fresh('Red');
    const blue = fresh('blue');
    const a = await createShort(alice, { tags: [red, blue] });
    const b = await createShort(alice, { tags: [red.toUpperCase()], name: 'zweiter' });
    const c = await createShort(alice, { tags: [blue] });
    await createShort(alice, {});
    const theirs = await createShort(bob, { tags: [red, blue] });
    const team = await createShort(alice, { tags: [red, blue], team: TEAM });

    expect(codesOf(await list(alice, `tag=${red}`))).toEqual([a.code, b.code].sort());
    expect(
      codesOf(await list(alice, `tag=${red.toLowerCase()}&tag=${blue.toUpperCase()}`)),
    ).toEqual([a.code]);
    // The same tag twice is one condition.
    expect(codesOf(await list(alice, `tag=${blue}&tag=${blue.toUpperCase()}`))).toEqual(
      [a.code, c.code].sort(),
    );
    // With the search, and blanks ignored.
    expect(codesOf(await list(alice, `tag=${red}&search=zweiter&tag=`))).toEqual([b.code]);
    // Paging: the total counts every match.
    const paged = (await (await alice.fetch(`/api/code?tag=${red}&size=1`)).json()) as Page;
    expect(paged.totalElements).toBe(2);
    expect(paged.content).toHaveLength(1);
    // An unknown tag: an empty page.
    const none = await list(alice, `tag=${fresh('nobody')}`);
    expect(none).toMatchObject({ content: [], totalElements: 0 });
    // Other users' shorts and other spaces' never.
    expect(codesOf(await list(bob, `tag=${red}`))).toEqual([theirs.code]);
    expect(codesOf(await list(alice, `tag=${red}&team=${TEAM}`))).toEqual([team.code]);
    expect(codesOf(await list(vera, `tag=${red}&team=${TEAM}`))).toEqual([team.code]);
    expect(codesOf(await list(vera, `tag=${red}`))).toEqual([]);
    expect((await bob.fetch(`/api/code?tag=${red}&team=${TEAM}`)).status).toBe(403);
  });

  it('refuses a tag filter beyond the limits with its key', async () => {
    const eleven = Array.from({ length: 11 }, (_, i) => `tag=t${i}`).join('&');
    const tooMany = await refused(await alice.fetch(`/api/code?${eleven}`));
    expect(tooMany.fieldErrorKeys?.tag).toBe('too_many_tags');
    for (const bad of ['a%23b', 'x'.repeat(33), 'a%2Cb']) {
      const p = await refused(await alice.fetch(`/api/code?tag=${bad}`));
      expect(p.fieldErrorKeys?.tag, bad).toBe('tag_invalid');
    }
  });

  it('GET /api/tags counts the tags of the caller’s space (or a team’s), most used first', async () => {
    const carol = await loginAs(t, 'carol');
    await createShort(carol, { tags: ['Zebra', 'apfel'] });
    await createShort(carol, { tags: ['zebra', 'Mitte'] });
    await createShort(carol, { tags: ['ZEBRA', 'Apfel', 'birne'] });
    await createShort(carol, { tags: ['mitte'] });
    const own = await counts(carol);
    expect(own.map((c) => [c.tag.toLowerCase(), c.count])).toEqual([
      ['zebra', 3],
      ['apfel', 2],
      ['mitte', 2],
      ['birne', 1],
    ]);
    // A spelling of each (one of those the shorts have).
    expect(['Zebra', 'zebra', 'ZEBRA']).toContain(own[0].tag);
    expect(own.find((c) => c.tag.toLowerCase() === 'birne')?.tag).toBe('birne');
    // Nobody else's: another user's space is his own, a fresh one has none.
    expect(await counts(await loginAs(t, 'dora'))).toEqual([]);
    expect((await counts(bob)).some((c) => c.tag.toLowerCase() === 'zebra')).toBe(false);

    // A team's: members read them, others are refused.
    const teamTag = fresh('Team');
    await createShort(alice, { tags: [teamTag, 'Gemeinsam'], team: TEAM });
    await createShort(alice, { tags: [teamTag.toUpperCase()], team: TEAM });
    const teamCounts = await counts(vera, `?team=${TEAM}`);
    expect(teamCounts.find((c) => c.tag.toLowerCase() === teamTag.toLowerCase())?.count).toBe(2);
    expect((await counts(alice)).some((c) => c.tag.toLowerCase() === teamTag.toLowerCase())).toBe(
      false,
    );
    expect((await expectProblem(await bob.fetch(`/api/tags?team=${TEAM}`), 403)).errorKey).toBe(
      'team_forbidden',
    );
  });

  it('a move to a team moves the tags’ space; out again, back to the owner’s own', async () => {
    const tag = fresh('Umzug');
    const s = await createShort(alice, { tags: [tag] });
    expect((await rowsOf(s.id)).map((r) => r.space)).toEqual([`u:${alice.userId}`]);
    const moved = await alice.patch(`/api/code/${s.id}`, { team: TEAM });
    expect(moved.status).toBe(200);
    expect((await rowsOf(s.id)).map((r) => r.space)).toEqual([`t:${TEAM}`]);
    expect(codesOf(await list(alice, `tag=${tag}`))).toEqual([]);
    expect(codesOf(await list(alice, `tag=${tag}&team=${TEAM}`))).toEqual([s.code]);
    expect((await counts(alice, `?team=${TEAM}`)).find((c) => c.tag === tag)?.count).toBe(1);
    expect((await counts(alice)).find((c) => c.tag === tag)).toBeUndefined();
    // Moved and re-tagged in one edit.
    const back = await alice.patch(`/api/code/${s.id}`, { team: null, tags: [tag, 'zurück'] });
    expect(back.status).toBe(200);
    expect(await rowsOf(s.id)).toEqual([
      { tag: tag.toLowerCase(), label: tag, space: `u:${alice.userId}` },
      { tag: 'zurück', label: 'zurück', space: `u:${alice.userId}` },
    ]);
    // A short created in the team has its rows there at once.
    const inTeam = await createShort(alice, { tags: ['x'], team: TEAM });
    expect((await rowsOf(inTeam.id)).map((r) => r.space)).toEqual([`t:${TEAM}`]);
  });

  it('deleting a short removes its tag rows', async () => {
    const s = await createShort(alice, { tags: ['weg', 'auch weg'] });
    expect(await rowsOf(s.id)).toHaveLength(2);
    expect((await alice.delete(`/api/code/${s.id}`)).status).toBe(204);
    expect(await rowsOf(s.id)).toEqual([]);
  });

  it('deleting a user removes the tag rows of his own shorts', async () => {
    const erin = await loginAs(t, 'erin');
    const s = await createShort(erin, { tags: ['erins'] });
    expect(await rowsOf(s.id)).toHaveLength(1);
    expect((await admin.delete(`/api/admin/entity/users/${erin.userId}`)).status).toBe(204);
    expect(await rowsOf(s.id)).toEqual([]);
  });

  it('export → import keeps the tags (one comma-separated column), rows and counts included', async () => {
    const frank = await loginAs(t, 'frank');
    await createShort(frank, {
      code: `ex-1-${randomBytes(2).toString('hex')}`,
      tags: ['Straße', 'Sale 2026'],
    });
    await createShort(frank, {
      code: `ex-2-${randomBytes(2).toString('hex')}`,
      tags: ['sale 2026'],
    });
    await createShort(frank, { code: `ex-3-${randomBytes(2).toString('hex')}` });
    const beforeCounts = await counts(frank);
    const csv = await (await frank.fetch('/api/code/export?format=csv')).text();
    const records = parse(csv, { columns: true }) as Array<Record<string, string>>;
    expect(records.map((r) => r.tags).sort()).toEqual(['', 'Straße,Sale 2026', 'sale 2026']);
    const json = (await (await frank.fetch('/api/code/export?format=json')).json()) as Array<
      Record<string, unknown>
    >;
    expect(json.map((r) => r.tags).sort()).toEqual(['Straße,Sale 2026', 'sale 2026', null].sort());
    const before = (await list(frank, '')).content.map((s) => [s.code, s.tags]).sort();

    await t.query('DELETE FROM shorts WHERE owner_id = ?', [frank.userId]);
    expect(await counts(frank)).toEqual([]);
    const imported = await frank.post('/api/code/import', { csv });
    expect(imported.status).toBe(200);
    expect(((await imported.json()) as ImportResult).created).toBe(3);
    expect((await list(frank, '')).content.map((s) => [s.code, s.tags]).sort()).toEqual(before);
    // The same counts (each tag in one of its spellings).
    const lower = (c: TagCount[]) => c.map((x) => [x.tag.toLowerCase(), x.count]);
    expect(lower(await counts(frank))).toEqual(lower(beforeCounts));
    expect(codesOf(await list(frank, 'tag=SALE 2026'))).toHaveLength(2);
  });

  it('imports Shlink’s tags column (`|`-separated, or `,`) and rows with tag lists', async () => {
    const gina = await loginAs(t, 'gina');
    const csv = [
      'createdAt,domain,shortCode,shortUrl,longUrl,title,tags,visits',
      '2025-03-01T10:00:00+01:00,,shl-t1,https://s.test/shl-t1,https://shlink.io/,Docs,docs|Guide,12',
      '2025-03-02T10:00:00+01:00,,shl-t2,https://s.test/shl-t2,https://example.com/2,Zwei,"docs, extra",3',
      '2025-03-03T10:00:00+01:00,,shl-t3,https://s.test/shl-t3,https://example.com/3,Drei,,0',
      '2025-03-04T10:00:00+01:00,,shl-t4,https://s.test/shl-t4,https://example.com/4,Vier,bad#tag,0',
    ].join('\n');
    const res = await gina.post('/api/code/import', { csv });
    expect(res.status).toBe(200);
    const result = (await res.json()) as ImportResult;
    expect(result.created).toBe(3);
    expect(result.skipped).toMatchObject([{ row: 4, code: 'shl-t4', errorKey: 'tag_invalid' }]);
    const byCode = Object.fromEntries((await list(gina, '')).content.map((s) => [s.code, s.tags]));
    expect(byCode).toEqual({
      'shl-t1': ['docs', 'Guide'],
      'shl-t2': ['docs', 'extra'],
      'shl-t3': [],
    });
    expect(await counts(gina)).toEqual([
      { tag: 'docs', count: 2 },
      { tag: 'extra', count: 1 },
      { tag: 'Guide', count: 1 },
    ]);
    // `{rows}` as Shlink's API gives them (`tags` a list); a row of eleven tags is skipped.
    const rows = await gina.post('/api/code/import', {
      rows: [
        { longUrl: 'https://example.com/r1', shortCode: 'shl-r1', tags: ['api', 'Docs'] },
        {
          longUrl: 'https://example.com/r2',
          shortCode: 'shl-r2',
          tags: Array.from({ length: 11 }, (_, i) => `t${i}`),
        },
        { longUrl: 'https://example.com/r3', shortCode: 'shl-r3', tags: [1] },
      ],
    });
    const rowsResult = (await rows.json()) as ImportResult;
    expect(rowsResult.created).toBe(1);
    expect(rowsResult.skipped.map((s) => [s.code, s.errorKey])).toEqual([
      ['shl-r2', 'too_many_tags'],
      ['shl-r3', 'tag_invalid'],
    ]);
    expect((await counts(gina)).find((c) => c.tag.toLowerCase() === 'docs')?.count).toBe(3);
    // Into a team: the rows are the team's.
    const team = await alice.post('/api/code/import', {
      rows: [{ url: 'https://example.com/team-import', tags: ['importiert'] }],
      team: TEAM,
    });
    expect(((await team.json()) as ImportResult).created).toBe(1);
    expect((await counts(alice, `?team=${TEAM}`)).find((c) => c.tag === 'importiert')?.count).toBe(
      1,
    );
  });

  it('an import’s chunk mixes shorts with and without tags; a taken code is skipped, the rest written', async () => {
    const hans = await loginAs(t, 'hans');
    const taken = await createShort(bob, { code: `mix-${randomBytes(3).toString('hex')}` });
    const rows = Array.from({ length: 30 }, (_, i) => ({
      url: `https://example.com/mix/${i}`,
      ...(i % 2 === 0 ? { tags: `gerade|Nr ${i}` } : {}),
      ...(i === 4 ? { code: taken.code } : {}),
    }));
    const res = await hans.post('/api/code/import', { rows });
    const result = (await res.json()) as ImportResult;
    expect(result.created).toBe(29);
    expect(result.skipped.map((s) => s.errorKey)).toEqual(['code_exists']);
    expect((await counts(hans)).find((c) => c.tag === 'gerade')?.count).toBe(14);
    const tagged = (await t.query(
      'SELECT COUNT(*) AS n FROM short_tags st JOIN shorts s ON s.id = st.short_id WHERE s.owner_id = ?',
      [hans.userId],
    )) as Array<{ n: number | string }>;
    expect(Number(tagged[0].n)).toBe(28);
  });

  it('an admin edits a short’s tags as comma-separated text, by the owner’s rules', async () => {
    const s = await createShort(alice, { tags: ['alt'] });
    const put = await admin.put(`/api/admin/entity/shorts/${s.id}`, { tags: 'Neu, zwei ,neu' });
    expect(put.status, await put.clone().text()).toBe(200);
    expect((await info(alice, s.code)).tags).toEqual(['Neu', 'zwei']);
    expect((await rowsOf(s.id)).map((r) => r.label)).toEqual(['Neu', 'zwei']);
    const bad = await admin.put(`/api/admin/entity/shorts/${s.id}`, { tags: 'a#b' });
    expect(((await expectProblem(bad, 400)) as Problem).fieldErrorKeys?.tags).toBe('tag_invalid');
    const cleared = await admin.put(`/api/admin/entity/shorts/${s.id}`, { tags: null });
    expect(cleared.status).toBe(200);
    expect(await rowsOf(s.id)).toEqual([]);
    await admin.put(`/api/admin/entity/shorts/${s.id}`, { tags: 'Gesucht' });
    const found = await admin.post('/api/admin/entity/shorts/search', {
      query_string: { query: `tags:gesucht` },
    });
    const rows = ((await found.json()) as { content: Array<{ id: string; tags: unknown }> })
      .content;
    expect(rows.find((r) => r.id === s.id)?.tags).toBe('Gesucht');
  });

  it('a short with tags onto an own domain: written with its rows while the domain is there', async () => {
    const host = `t${randomBytes(4).toString('hex')}.tags.example`;
    const repo = t.ds.getRepository(DomainEntity);
    const d = repo.create({
      id: randomUUID(),
      host,
      verifiedHost: host,
      ownerId: alice.userId,
      teamId: null,
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
    await repo.insert(d);
    await t.app.get(DomainRegistry).changed(d.id);
    const ok = await alice.post('/api/code', {
      url: 'https://example.com/d',
      domain: host,
      code: 'on-domain',
      tags: ['Domain'],
    });
    expect(ok.status, await ok.clone().text()).toBe(201);
    const [row] = await t.query('SELECT id FROM shorts WHERE domain = ? AND code = ?', [
      host,
      'on-domain',
    ]);
    expect((await rowsOf(row.id as string)).map((r) => r.label)).toEqual(['Domain']);
    // The domain went (its row, before this instance heard of it): nothing is written.
    await t.query('DELETE FROM shorts WHERE domain = ?', [host]);
    await t.query('DELETE FROM domains WHERE id = ?', [d.id]);
    const gone = await alice.post('/api/code', {
      url: 'https://example.com/d',
      domain: host,
      code: 'gone-domain',
      tags: ['Domain'],
    });
    expect(((await expectProblem(gone, 400)) as Problem).fieldErrorKeys?.domain).toBe(
      'domain_unknown',
    );
    expect(await t.query('SELECT id FROM shorts WHERE code = ?', ['gone-domain'])).toEqual([]);
  });

  it('at a larger scale: pages by walking the space or by id, counts read in slices', async () => {
    const ivan = await loginAs(t, 'ivan');
    const n = 2100;
    const tagsOf = (j: number) => [
      'alle',
      `m${j % 3}`,
      j % 2 === 0 ? 'gerade' : 'ungerade',
      ...Array.from({ length: 7 }, (_, k) => `f${(j + k) % 40}`),
    ];
    const start = Date.UTC(2026, 0, 1);
    const shorts = await insertShorts(t, n, (j) => ({
      code: `big-${String(j).padStart(4, '0')}`,
      ownerId: ivan.userId,
      createdAt: new Date(start + j * 60_000),
      tags: tagsOf(j).join(','),
    }));
    const rows = shorts.flatMap((s, j) =>
      tagsOf(j).map((tag) => [s.id, tag, tag, `u:${ivan.userId}`] as const),
    );
    await insertTagRows(t, rows);
    await analyzeTables(t, ['shorts', 'short_tags']);
    // The counts (21,000 rows: more than one slice on SQLite), most used first, ties by tag.
    const expected = new Map<string, number>();
    for (let j = 0; j < n; j++)
      for (const tag of tagsOf(j)) expected.set(tag, (expected.get(tag) ?? 0) + 1);
    const sorted = [...expected]
      .map(([tag, count]) => ({ tag, count }))
      .sort((a, b) => b.count - a.count || (a.tag < b.tag ? -1 : 1));
    expect(await counts(ivan)).toEqual(sorted);

    const newest = (keep: (j: number) => boolean, from = 0, size = 20) =>
      Array.from({ length: n }, (_, j) => n - 1 - j)
        .filter(keep)
        .slice(from, from + size)
        .map((j) => `big-${String(j).padStart(4, '0')}`);
    const page = async (query: string) =>
      (await (await ivan.fetch(`/api/code?${query}`)).json()) as Page;
    /** The engine's EXPLAIN of the page's statement (its visits column) among those sent. */
    const explainPage = async <Row>(calls: unknown[][]): Promise<Row[]> => {
      const [sql, params] = calls.find(([q]) => /list_visits/.test(String(q)))!;
      return (await t.ds.query(`EXPLAIN ${String(sql)}`, params as unknown[])) as Row[];
    };
    // Many (2,100; 1,050): the space walked in its order.
    const all = await page('tag=alle');
    expect(all.totalElements).toBe(n);
    expect(all.content.map((s) => s.code)).toEqual(newest(() => true));
    const sent = vi.spyOn(t.ds.manager, 'query');
    const named = vi.spyOn(PgNamedStatements.prototype, 'query');
    const even = await page('tag=alle&tag=GERADE&page=3');
    const calls = [...sent.mock.calls, ...named.mock.calls];
    const byName = named.mock.calls.filter(([q]) => /list_visits/.test(q));
    sent.mockRestore();
    named.mockRestore();
    // PostgreSQL gets the page by name (planned once per connection), the others as always.
    expect(byName).toHaveLength(TEST_DB_KIND === 'postgres' ? 1 : 0);
    expect(even.totalElements).toBe(1050);
    expect(even.content.map((s) => s.code)).toEqual(newest((j) => j % 2 === 0, 60));
    // Another page is the same text with other values (the size and offset are parameters), so
    // paging does not use up the names PostgreSQL keeps.
    const pageText = (c: unknown[][]) => String(c.find(([q]) => /list_visits/.test(String(q)))![0]);
    const again = vi.spyOn(
      TEST_DB_KIND === 'postgres' ? PgNamedStatements.prototype : t.ds.manager,
      'query',
    );
    const later = await page('tag=alle&tag=GERADE&page=7&size=50');
    const laterText = pageText(again.mock.calls as unknown[][]);
    again.mockRestore();
    expect(later.content.map((s) => s.code)).toEqual(newest((j) => j % 2 === 0, 350, 50));
    expect(laterText).toBe(pageText(calls));
    // Nothing but tags, newest first: the rarest tag's range of its index (space, tag, created_at,
    // short_id) is read in the page's order, the other tag tested per entry by the primary key;
    // only the page's rows are read, by their primary key, after it.
    if (TEST_DB_KIND === 'postgres') {
      // Each other tag a test per entry (a SubPlan), not a semi-join that reads every short of the
      // space with the tags and sorts them (330 ms a page in the bench).
      const plan = (await explainPage<{ 'QUERY PLAN': string }>(calls))
        .map((r) => r['QUERY PLAN'])
        .join('\n');
      expect(plan).toMatch(/SubPlan/);
      expect(plan).toMatch(/Index Only Scan Backward using "?IDX_short_tags_space_tag_created"?/);
      expect(plan).not.toMatch(/Semi Join|Merge Join|Hash Join/);
      // The plan PostgreSQL keeps for the name after a few runs (a generic one, for any values):
      // the same walk.
      const [sql, params] = byName[0];
      const runner = t.ds.createQueryRunner();
      try {
        await runner.query(`PREPARE generic_tag_page AS ${sql}`);
        await runner.query('SET plan_cache_mode = force_generic_plan');
        const values = (params as unknown[]).map((v) => `'${String(v).replace(/'/g, "''")}'`);
        const generic = (
          (await runner.query(`EXPLAIN EXECUTE generic_tag_page(${values.join(', ')})`)) as Array<{
            'QUERY PLAN': string;
          }>
        )
          .map((r) => r['QUERY PLAN'])
          .join('\n');
        expect(generic).toMatch(/SubPlan/);
        expect(generic).toMatch(
          /Index Only Scan Backward using "?IDX_short_tags_space_tag_created"?/,
        );
        expect(generic).not.toMatch(/Semi Join|Merge Join|Hash Join|Sort Key: r\./);
      } finally {
        await runner.query('DEALLOCATE generic_tag_page').catch(() => undefined);
        await runner.query('RESET plan_cache_mode').catch(() => undefined);
        await runner.release();
      }
    }
    if (TEST_DB_KIND === 'mariadb') {
      const plan = await explainPage<MariaPlanRow>(calls);
      const walk = plan.find((r) => r.select_type === 'DERIVED' && r.table === 'r');
      expect(walk, JSON.stringify(plan)).toMatchObject({ key: 'IDX_short_tags_space_tag_created' });
      expect(walk!.Extra ?? '').not.toMatch(/filesort/);
      expect(plan.find((r) => r.select_type === 'PRIMARY' && r.table === 's')).toMatchObject({
        type: 'eq_ref',
        key: 'PRIMARY',
      });
    }
    if (TEST_DB_KIND === 'sqlite') {
      const [sql, params] = calls.find(([q]) => /list_visits/.test(String(q)))!;
      const plan = (
        (await t.ds.query(`EXPLAIN QUERY PLAN ${String(sql)}`, params as unknown[])) as Array<{
          detail: string;
        }>
      ).map((r) => r.detail);
      expect(plan.join('\n')).toMatch(
        /SEARCH r USING COVERING INDEX IDX_short_tags_space_tag_created/,
      );
      // The walk is in the index's order: nothing sorted but the page's 20 rows at the end.
      expect(
        plan.filter((d) => /TEMP B-TREE/.test(d)),
        plan.join('\n'),
      ).toHaveLength(1);
    }
    // Without tags, the newest first: ties by the id in the same direction, so MariaDB walks the
    // space's index instead of sorting every short of the space (page 10 of 100,000: 160-270 ms).
    const spied = vi.spyOn(t.ds.manager, 'query');
    const deep = await page('page=20&size=20');
    const deepCalls = [...spied.mock.calls];
    spied.mockRestore();
    expect(deep.content.map((s) => s.code)).toEqual(newest(() => true, 400));
    if (TEST_DB_KIND === 'mariadb') {
      const plan = await explainPage<MariaPlanRow>(deepCalls);
      const walk = plan.find((r) => r.select_type === 'DERIVED' && r.table === 's');
      expect(walk, JSON.stringify(plan)).toMatchObject({ key: 'IDX_shorts_owner_team_created' });
      expect(walk!.Extra ?? '').not.toMatch(/filesort/);
    }
    // Few (700), or another order: read by id.
    const m1 = await page('tag=m1&tag=alle&page=1&size=50');
    expect(m1.totalElements).toBe(700);
    expect(m1.content.map((s) => s.code)).toEqual(newest((j) => j % 3 === 1, 50, 50));
    const byCode = await page('tag=gerade&sort=code,asc&size=5');
    expect(byCode.totalElements).toBe(1050);
    expect(byCode.content.map((s) => s.code)).toEqual([
      'big-0000',
      'big-0002',
      'big-0004',
      'big-0006',
      'big-0008',
    ]);
    // With a search: counted with it.
    const searched = await page('tag=m0&search=big-01');
    expect(searched.totalElements).toBe(
      Array.from({ length: n }, (_, j) => j).filter(
        (j) => j % 3 === 0 && String(j).padStart(4, '0').startsWith('01'),
      ).length,
    );
    // Past the end: an empty page with the total.
    expect(await page('tag=m2&page=100')).toMatchObject({ content: [], totalElements: 700 });
    // Oldest first: the walk in the other direction.
    const oldest = await page('tag=alle&tag=ungerade&page=2&size=10&sort=createdAt,asc');
    expect(oldest.content.map((s) => s.code)).toEqual(
      Array.from({ length: n }, (_, j) => j)
        .filter((j) => j % 2 === 1)
        .slice(20, 30)
        .map((j) => `big-${String(j).padStart(4, '0')}`),
    );
  });

  it('shorts of the same millisecond: pages by a tag in the order of the whole list, both ways', async () => {
    const zoe = await loginAs(t, 'zoe');
    const tag = fresh('gleich');
    const at = new Date(Date.UTC(2026, 2, 1));
    // 30 shorts of one millisecond (an import's), 10 of them a millisecond later; all tagged.
    const shorts = await insertShorts(t, 40, (j) => ({
      code: `tie-${tag}-${j}`,
      ownerId: zoe.userId,
      createdAt: new Date(at.getTime() + (j < 30 ? 0 : 1)),
      tags: tag,
    }));
    await insertTagRows(
      t,
      shorts.map((s) => [s.id, tag, tag, `u:${zoe.userId}`] as const),
    );
    const codes = async (query: string) =>
      ((await (await zoe.fetch(`/api/code?${query}`)).json()) as Page).content.map((s) => s.code);
    for (const dir of ['desc', 'asc']) {
      const whole = await codes(`size=100&sort=createdAt,${dir}`);
      expect(whole).toHaveLength(40);
      const paged: string[] = [];
      for (let p = 0; p < 6; p++)
        paged.push(...(await codes(`tag=${tag}&size=7&page=${p}&sort=createdAt,${dir}`)));
      expect(paged).toEqual(whole);
    }
  });

  it("a team's space walked by tags: the page's shorts with their owner and team", async () => {
    const n = 1100;
    const tag = fresh('kampagne');
    const start = Date.UTC(2026, 1, 1);
    const shorts = await insertShorts(t, n, (j) => ({
      code: `team-${tag}-${String(j).padStart(4, '0')}`,
      ownerId: j % 2 === 0 ? alice.userId : null,
      teamId: TEAM,
      createdAt: new Date(start + j * 60_000),
      tags: tag,
    }));
    const rows = shorts.map((s) => [s.id, tag, tag, `t:${TEAM}`] as const);
    await insertTagRows(t, rows);
    await analyzeTables(t, ['shorts', 'short_tags']);
    const res = await vera.fetch(`/api/code?team=${TEAM}&tag=${tag}&page=2&size=20`);
    expect(res.status, await res.clone().text()).toBe(200);
    const got = (await res.json()) as Page;
    expect(got.totalElements).toBe(n);
    const js = Array.from({ length: 20 }, (_, i) => n - 1 - 40 - i);
    expect(got.content.map((s) => s.code)).toEqual(
      js.map((j) => `team-${tag}-${String(j).padStart(4, '0')}`),
    );
    expect(got.content.map((s) => [s.owner?.username ?? null, s.team?.name])).toEqual(
      js.map((j) => [j % 2 === 0 ? 'alice' : null, 'Kampagnen']),
    );
  });

  // mysql2's promise wrapper captured a stack for every query (3 % of a list page's CPU); the
  // app's connections go without it, and a failed query's error still names the app's callers.
  it.skipIf(TEST_DB_KIND !== 'mariadb')(
    "MariaDB: no stack captured per query; a failed query's error still shows its caller",
    async () => {
      const { pool } = t.ds.driver as unknown as {
        pool: { config: { connectionConfig: { trace: boolean } } };
      };
      expect(pool.config.connectionConfig.trace).toBe(false);
      const readsWhatIsNotThere = async () =>
        await t.ds.query('SELECT nothing FROM no_such_table WHERE id = ?', ['x']);
      const err = (await readsWhatIsNotThere().catch((e: unknown) => e)) as Error;
      expect(err.message).toMatch(/no_such_table/);
      expect(err.stack).toMatch(/readsWhatIsNotThere/);
    },
  );

  // PostgreSQL planned a page by two tags of 100,000 shorts with two parallel workers (18 ms, three
  // processes' CPU, against 5.8 ms alone): the app's connections start without them. Here the
  // planner is made to want them (no setup cost), as a bigger table would.
  it.skipIf(TEST_DB_KIND !== 'postgres')(
    "PostgreSQL: the app's connections plan without parallel workers, however cheap they seem",
    async () => {
      const runners = [t.ds.createQueryRunner(), t.ds.createQueryRunner()];
      try {
        for (const runner of runners) {
          await runner.connect();
          expect(await runner.query('SHOW max_parallel_workers_per_gather')).toEqual([
            { max_parallel_workers_per_gather: '0' },
          ]);
          await runner.query(
            'SET parallel_setup_cost = 0; SET parallel_tuple_cost = 0; SET min_parallel_table_scan_size = 0',
          );
          const plan = (
            (await runner.query('EXPLAIN SELECT COUNT(*) FROM short_tags WHERE tag LIKE $1', [
              '%x%',
            ])) as Array<{ 'QUERY PLAN': string }>
          ).map((r) => r['QUERY PLAN']);
          expect(plan.join('\n')).not.toMatch(/Gather|Parallel/);
          await runner.query(
            'RESET parallel_setup_cost; RESET parallel_tuple_cost; RESET min_parallel_table_scan_size',
          );
        }
      } finally {
        for (const runner of runners) await runner.release();
      }
    },
  );
});
