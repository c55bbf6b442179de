import { randomUUID } from 'node:crypto';
import type { Repository } from 'typeorm';
import { engineOf } from '../../src/database/dialect';
import { expect } from 'vitest';
import type { ShortDto } from '../../src/shorts/dto/short.dto';
import { UNCHECKED } from '../../src/shorts/short-health';
import { ShortEntity } from '../../src/shorts/short.entity';
import { tagRowsInsertSql } from '../../src/shorts/short-tags';
import type { TestApp } from './app';

/** A short entity with defaults for every field, every column set (not saved). */
export function newShort(repo: Repository<ShortEntity>, fields: Partial<ShortEntity>): ShortEntity {
  return repo.create({
    id: randomUUID(),
    code: `t${randomUUID().replace(/-/g, '').slice(0, 12)}`,
    domain: '',
    name: null,
    url: 'https://example.com/direct',
    passwordHash: null,
    maxUses: null,
    uses: 0,
    createdAt: new Date(),
    expireAt: null,
    ownerId: null,
    teamId: null,
    dangerous: false,
    dangerReason: null,
    expiredUrl: null,
    rules: null,
    tags: null,
    preview: null,
    qrStyle: null,
    ...UNCHECKED,
    ...fields,
  });
}

/** Inserts a short directly (for states the API cannot create), with defaults for every field. */
export async function insertShort(
  t: Pick<TestApp, 'ds'>,
  fields: Partial<ShortEntity> = {},
): Promise<ShortEntity> {
  const repo = t.ds.getRepository(ShortEntity);
  const s = newShort(repo, fields);
  await repo.insert(s);
  return s;
}

/**
 * Inserts `n` shorts directly, 100 rows per INSERT (one by one, a thousand take long). The entities
 * are not updated from the database: on MySQL/MariaDB TypeORM reads the inserted rows back for a
 * multi-row insert and hands their ids to the wrong entities.
 */
export async function insertShorts(
  t: Pick<TestApp, 'ds'>,
  n: number,
  fields: (i: number) => Partial<ShortEntity> = () => ({}),
): Promise<ShortEntity[]> {
  const repo = t.ds.getRepository(ShortEntity);
  const list = Array.from({ length: n }, (_, i) => newShort(repo, fields(i)));
  for (let i = 0; i < list.length; i += 100) {
    await repo
      .createQueryBuilder()
      .insert()
      .values(list.slice(i, i + 100))
      .updateEntity(false)
      .execute();
  }
  return list;
}

/**
 * Refreshes the planner's statistics of tables a test filled directly, as a server's automatic
 * analysis does within a minute of many changes. PostgreSQL plans a table it has never analysed as
 * if it held a row or two: a list of 2,100 tagged shorts was joined by a nested loop over both
 * (1.9 s, against the 2 s query timeout on a loaded machine).
 */
/**
 * Rows of short_tags (short_id, tag, label, space), written 250 at a time by the app's own INSERT
 * (each row takes its short's `created_at`).
 */
export async function insertTagRows(
  t: Pick<TestApp, 'query'>,
  rows: ReadonlyArray<readonly [string, string, string, string]>,
): Promise<void> {
  for (let i = 0; i < rows.length; i += 250) {
    const part = rows.slice(i, i + 250);
    await t.query(
      tagRowsInsertSql(part.length),
      part.flatMap(([shortId, tag, label, space]) => [tag, label, space, shortId]),
    );
  }
}

export async function analyzeTables(
  t: Pick<TestApp, 'ds' | 'query'>,
  tables: readonly string[],
): Promise<void> {
  const engine = engineOf(t.ds);
  if (engine === 'postgres') await t.query(`ANALYZE ${tables.join(', ')}`);
  else if (engine === 'mysql') await t.query(`ANALYZE TABLE ${tables.join(', ')}`);
  else await t.query('ANALYZE');
}

/** Who calls the API: the test app (anonymous) or a logged-in user (`loginAs`, `useLogin`). */
export type ApiClient = Pick<TestApp, 'fetch' | 'post'>;

/** A short created through the API: its code, id and link, and the whole info answer. */
export interface CreatedShort {
  code: string;
  id: string;
  shortUrl: string;
  short: ShortDto;
}

/** The body of a test create: the url defaults to https://example.com/target. */
const withUrl = (body: Record<string, unknown>) => ({ url: 'https://example.com/target', ...body });

/** The code of a create's answer `res`, which must be 201 (`what` names the create in a failure). */
async function codeOf(res: Response, what: string): Promise<string> {
  expect(res.status, `create ${what}: ${await res.clone().text()}`).toBe(201);
  return ((await res.json()) as { code: string }).code;
}

/**
 * Creates a short through the API as `client` (POST /api/code; fails unless 201) and answers only
 * its code, with no further request. `body` defaults the url to https://example.com/target.
 */
export async function createCode(
  client: ApiClient,
  body: Record<string, unknown> = {},
): Promise<string> {
  return codeOf(await client.post('/api/code', withUrl(body)), JSON.stringify(body));
}

/**
 * The short a create answered with `res` (fails unless 201), read back through the info call as
 * `reader` for its id and link: for creates a test sends its own way (another instance, a proxy).
 */
export async function createdShort(
  res: Response,
  reader: Pick<ApiClient, 'fetch'>,
  what = '',
): Promise<CreatedShort> {
  const code = await codeOf(res, what);
  const info = await reader.fetch(`/api/code/${encodeURIComponent(code)}?redirect=false`);
  expect(info.status, `info of the created short ${code}`).toBe(200);
  const short = (await info.json()) as ShortDto;
  return { code, id: short.id, shortUrl: short.shortUrl, short };
}

/**
 * Creates a short through the API as `client` (POST /api/code; fails unless 201) and reads it back
 * through the info call (the create answers only its code) for its id and link. `body` defaults
 * the url to https://example.com/target. Shorts on the main host only (the info call resolves a
 * code by Host). For a create the test expects to be refused, see `tryCreate`.
 */
export async function createShort(
  client: ApiClient,
  body: Record<string, unknown> = {},
): Promise<CreatedShort> {
  return createdShort(await client.post('/api/code', withUrl(body)), client, JSON.stringify(body));
}

/** A create that may be refused, as `client`: its status and the problem's detail (none on 201). */
export async function tryCreate(
  client: ApiClient,
  body: Record<string, unknown>,
): Promise<{ status: number; detail?: string }> {
  const res = await client.post('/api/code', body);
  const answer = (await res.json()) as { detail?: string };
  return { status: res.status, detail: answer.detail };
}
