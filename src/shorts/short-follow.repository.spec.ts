import { describe, expect, it } from 'vitest';
import type { Repository } from 'typeorm';
import type { AppConfig } from '../config/config';
import { ShortFollowRepository } from './short-follow.repository';
import { fieldsWith, SHORT_FIELDS } from '../shared/short-fields';
import type { ShortEntity } from './short.entity';

/** The columns of the follow read, in the order the follow row decodes them. */
const FOLLOW_COLUMNS =
  'id, uses, dangerous, owner_id, team_id, url, password_hash, name, expire_at, max_uses, expired_url, rules, preview';

/** A stored short as the follow read returns it (snake_case columns). */
const stored = (code: string) => ({
  code,
  id: `id-${code}`,
  name: null,
  url: `https://example.com/${code}`,
  password_hash: null,
  max_uses: '5',
  uses: '2',
  expire_at: null,
  dangerous: 0,
  owner_id: null,
  team_id: null,
  expired_url: null,
  rules: null,
  preview: null,
});

/** ShortFollowRepository over a fake TypeORM repository whose raw queries are recorded. */
function repository(
  type: 'mysql' | 'postgres' | 'better-sqlite3',
  table: string[],
  databaseConnection?: unknown,
) {
  const queries: Array<{ sql: string; params: unknown[] }> = [];
  const connection = { options: { type }, driver: { databaseConnection } };
  const repo = {
    manager: {
      connection,
      query: async (sql: string, params: unknown[]) => {
        queries.push({ sql, params });
        // The fake database compares as PAD SPACE does: trailing spaces do not count.
        // PostgreSQL's codes come as one array parameter, MariaDB's as one parameter each.
        const wanted = new Set(
          params
            .slice(1)
            .flat()
            .map((p) => String(p).trimEnd()),
        );
        return table.filter((c) => wanted.has(c)).map(stored);
      },
    },
  } as unknown as Repository<ShortEntity>;
  const shorts = new ShortFollowRepository(repo, { dbTimeoutMs: 5000 } as AppConfig);
  return { shorts, queries };
}

/** Concurrent follow reads of `codes` (on this service's host unless `[domain, code]`). */
async function followAll(
  type: 'mysql' | 'postgres',
  table: string[],
  codes: ReadonlyArray<string | [string, string]>,
) {
  const { shorts, queries } = repository(type, table);
  const rows = await Promise.all(
    codes.map((c) =>
      typeof c === 'string' ? shorts.findForFollow('', c) : shorts.findForFollow(...c),
    ),
  );
  return { rows, queries };
}

describe('ShortFollowRepository.findForFollow', () => {
  it('MariaDB: concurrent reads are one SELECT … IN, rows mapped back by the exact code', async () => {
    const { rows, queries } = await followAll(
      'mysql',
      ['abc', 'def'],
      ['abc', 'abc ', 'nope', 'def'],
    );
    expect(queries).toEqual([
      {
        // 'abc ' is not a code (a space): never sent (PAD SPACE would match 'abc' for it).
        sql: `SELECT code, ${FOLLOW_COLUMNS} FROM shorts WHERE domain = ? AND code IN (?, ?, ?)`,
        params: ['', 'abc', 'nope', 'def'],
      },
    ]);
    expect(rows.map((r) => r?.url ?? null)).toEqual([
      'https://example.com/abc',
      null,
      null,
      'https://example.com/def',
    ]);
    expect(rows[0]).toEqual({
      id: 'id-abc',
      name: null,
      url: 'https://example.com/abc',
      passwordHash: null,
      maxUses: 5,
      uses: 2,
      expireAt: null,
      dangerous: false,
      ownerId: null,
      teamId: null,
      expiredUrl: null,
      rules: null,
      preview: null,
    });
  });

  it('PostgreSQL: the codes as one array, each read by the unique index; a code or domain with NUL is never sent and never found', async () => {
    const { rows, queries } = await followAll(
      'postgres',
      ['abc', 'a\0b'],
      ['a\0b', 'abc', ['bad\0.example', 'abc'], 'xyz'],
    );
    expect(queries).toEqual([
      {
        sql: `SELECT s.* FROM unnest($2::text[]) AS c(code), LATERAL (SELECT code, ${FOLLOW_COLUMNS} FROM shorts WHERE domain = $1 AND shorts.code = c.code LIMIT 1) AS s`,
        params: ['', ['abc', 'xyz']],
      },
    ]);
    expect(rows.map((r) => r?.id ?? null)).toEqual([null, 'id-abc', null, null]);
  });

  it('SQLite: one prepared statement, reused; a busy database falls back to TypeORM', async () => {
    const prepared: string[] = [];
    let busy = false;
    const statement = {
      raw: () => statement,
      get: (domain: string, code: string) => {
        if (busy) throw Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });
        if (domain !== '' || code !== 'abc') return undefined;
        // better-sqlite3's raw row: the values in the statement's column order.
        const row: Record<string, unknown> = {
          ...stored('abc'),
          name: 'Name',
          max_uses: null,
          uses: 3,
          expire_at: '2030-01-02 03:04:05.678',
          dangerous: 1,
          owner_id: 'user-1',
          preview: '{"title":"T"}',
        };
        return FOLLOW_COLUMNS.split(', ').map((c) => row[c]);
      },
    };
    const db = {
      prepare: (sql: string) => {
        prepared.push(sql);
        return statement;
      },
    };
    const { shorts, queries } = repository('better-sqlite3', ['abc'], db);
    expect(shorts.findForFollow('', 'abc')).not.toBeInstanceOf(Promise); // answered at once
    expect(await shorts.findForFollow('', 'abc')).toEqual({
      id: 'id-abc',
      name: 'Name',
      url: 'https://example.com/abc',
      passwordHash: null,
      maxUses: null,
      uses: 3,
      expireAt: new Date(Date.UTC(2030, 0, 2, 3, 4, 5, 678)),
      dangerous: true,
      ownerId: 'user-1',
      teamId: null,
      expiredUrl: null,
      rules: null,
      preview: { title: 'T' },
    });
    expect(shorts.findForFollow('', 'nope')).toBeNull();
    expect(shorts.findForFollow('', 'a\0bc')).toBeNull();
    expect(prepared).toEqual([
      `SELECT ${FOLLOW_COLUMNS} FROM shorts WHERE domain = ? AND code = ?`,
    ]);
    expect(queries).toEqual([]); // TypeORM not involved

    busy = true;
    const fallback = shorts.findForFollow('', 'abc');
    expect(fallback).toBeInstanceOf(Promise);
    expect((await fallback)?.id).toBe('id-abc');
    expect(queries).toEqual([
      {
        sql: `SELECT ${FOLLOW_COLUMNS} FROM shorts WHERE domain = ? AND code = ?`,
        params: ['', 'abc'],
      },
    ]);
    expect(prepared).toHaveLength(1);
  });
});

describe('the follow row', () => {
  it('reads the id, uses, flag and space and every field whose row says `followed`', async () => {
    const { rows } = await followAll('mysql', ['abc'], ['abc']);
    expect(Object.keys(rows[0] ?? {})).toEqual([
      'id',
      'uses',
      'dangerous',
      'ownerId',
      'teamId',
      ...fieldsWith('followed').map((name) => SHORT_FIELDS[name].column),
    ]);
  });
});
