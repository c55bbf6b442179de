import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import {
  dialectSql,
  engineOf,
  insertIgnoring,
  jsonRowsOf,
  mysqlReturns,
  placeholders,
  upsertAdding,
} from './dialect';

describe('dialect', () => {
  it('numbers parameters for PostgreSQL only', () => {
    const sql = 'UPDATE t SET a = a + ? WHERE id = ? AND (b IS NULL OR a < b)';
    expect(dialectSql('postgres', sql)).toBe(
      'UPDATE t SET a = a + $1 WHERE id = $2 AND (b IS NULL OR a < b)',
    );
    expect(dialectSql('mysql', sql)).toBe(sql);
    expect(dialectSql('sqlite', sql)).toBe(sql);
  });

  it('names the engine of a data source', () => {
    expect(engineOf({ options: { type: 'mariadb' } } as never)).toBe('mysql');
    expect(engineOf({ options: { type: 'mysql' } } as never)).toBe('mysql');
    expect(engineOf({ options: { type: 'postgres' } } as never)).toBe('postgres');
    expect(engineOf({ options: { type: 'better-sqlite3' } } as never)).toBe('sqlite');
  });

  it('writes parameter lists', () => {
    expect(placeholders(3)).toBe('?, ?, ?');
    expect(placeholders(0)).toBe('');
  });
});

describe('insertIgnoring', () => {
  const columns = ['short_id', 'day_no', 'hash'];

  it('MySQL/MariaDB: INSERT IGNORE', () => {
    expect(insertIgnoring('mysql', 'v', columns, columns, 2)).toBe(
      'INSERT IGNORE INTO v (short_id, day_no, hash) VALUES (?, ?, ?), (?, ?, ?)',
    );
  });

  it('PostgreSQL: ON CONFLICT (key) DO NOTHING', () => {
    expect(insertIgnoring('postgres', 's', ['day_no', 'salt'], ['day_no'])).toBe(
      'INSERT INTO s (day_no, salt) VALUES (?, ?) ON CONFLICT (day_no) DO NOTHING',
    );
  });

  it('SQLite: INSERT OR IGNORE, which skips stored keys and writes the rest', () => {
    expect(insertIgnoring('sqlite', 's', ['day_no', 'salt'], ['day_no'])).toBe(
      'INSERT OR IGNORE INTO s (day_no, salt) VALUES (?, ?)',
    );
    const db = new Database(':memory:');
    db.exec('CREATE TABLE s (day_no INTEGER PRIMARY KEY, salt TEXT)');
    db.prepare(insertIgnoring('sqlite', 's', ['day_no', 'salt'], ['day_no'])).run(1, 'first');
    const r = db
      .prepare(insertIgnoring('sqlite', 's', ['day_no', 'salt'], ['day_no'], 2))
      .run(1, 'second', 2, 'new');
    expect(r.changes).toBe(1);
    expect(db.prepare('SELECT day_no, salt FROM s ORDER BY day_no').raw().all()).toEqual([
      [1, 'first'],
      [2, 'new'],
    ]);
    db.close();
  });
});

describe('upsertAdding', () => {
  const columns = ['short_id', 'hour_no', 'visits', 'bots'];
  const key = ['short_id', 'hour_no'];
  const adds = ['visits', 'bots'];

  it('MySQL/MariaDB: ON DUPLICATE KEY UPDATE c = c + VALUES(c)', () => {
    expect(upsertAdding('mysql', 'h', columns, key, adds, 1)).toBe(
      'INSERT INTO h (short_id, hour_no, visits, bots) VALUES (?, ?, ?, ?) ON DUPLICATE KEY UPDATE visits = visits + VALUES(visits), bots = bots + VALUES(bots)',
    );
  });

  it('PostgreSQL: ON CONFLICT (key) DO UPDATE SET c = table.c + excluded.c', () => {
    expect(upsertAdding('postgres', 'h', columns, key, adds, 2)).toBe(
      'INSERT INTO h (short_id, hour_no, visits, bots) VALUES (?, ?, ?, ?), (?, ?, ?, ?) ON CONFLICT (short_id, hour_no) DO UPDATE SET visits = h.visits + excluded.visits, bots = h.bots + excluded.bots',
    );
  });

  it('SQLite: the same as PostgreSQL, adding to the stored counts', () => {
    const text = upsertAdding('sqlite', 'h', columns, key, adds, 2);
    expect(text).toBe(upsertAdding('postgres', 'h', columns, key, adds, 2));
    const db = new Database(':memory:');
    db.exec(
      'CREATE TABLE h (short_id TEXT, hour_no INTEGER, visits INTEGER, bots INTEGER, PRIMARY KEY (short_id, hour_no))',
    );
    db.prepare(text).run('a', 1, 2, 0, 'a', 2, 5, 1);
    db.prepare(text).run('a', 1, 3, 1, 'b', 1, 7, 0);
    expect(db.prepare('SELECT * FROM h ORDER BY short_id, hour_no').raw().all()).toEqual([
      ['a', 1, 5, 1],
      ['a', 2, 5, 1],
      ['b', 1, 7, 0],
    ]);
    db.close();
  });
});

describe('mysqlReturns', () => {
  it('MariaDB from 10.5 answers INSERT … RETURNING, MySQL does not', () => {
    const versions: Array<[string, boolean]> = [
      ['11.4.2-MariaDB-ubu2404', true],
      ['10.5.0-MariaDB', true],
      ['10.4.34-MariaDB', false],
      ['8.4.0', false],
    ];
    for (const [version, returns] of versions) expect(mysqlReturns(version), version).toBe(returns);
  });
});

describe('jsonRowsOf', () => {
  const COLUMNS = ['t', 'k', 'v', 'u', 'b', 'dim', 'name'];

  it('MySQL/MariaDB: none (the rows are read as they are)', () => {
    expect(jsonRowsOf('mysql', COLUMNS, 'SELECT 1')).toBeUndefined();
  });

  it('PostgreSQL: json_agg of json_build_array over the statement, as text', () => {
    expect(jsonRowsOf('postgres', ['a', 'b'], 'SELECT 1 AS a, 2 AS b')).toBe(
      'SELECT json_agg(json_build_array(a, b))::text AS j FROM (SELECT 1 AS a, 2 AS b) AS r',
    );
  });

  // The values are what the statistics store: referrer hosts, user agents' names, countries,
  // and the targets of redirect rules, which can hold any text.
  const names = [
    't.co',
    'Mobile Safari',
    '"quoted"',
    'back\\slash',
    'tab\there',
    'zeile\nzwei',
    'Grüße 🚀',
    '日本',
    "it's",
    '',
  ];

  it('SQLite folds the rows into JSON that parses back to the same rows, every value as stored', () => {
    const db = new Database(':memory:');
    db.exec('CREATE TABLE v (day_no INTEGER, dim TEXT, name TEXT, hits INTEGER)');
    const insert = db.prepare('INSERT INTO v VALUES (?, ?, ?, ?)');
    names.forEach((name, i) => insert.run(20_000 + i, 'referrer', name, 2 ** 40 + i));
    const text =
      'SELECT 0 AS t, day_no AS k, hits AS v, 0 AS u, 1 AS b, NULL AS dim, NULL AS name FROM v WHERE day_no >= ? UNION ALL ' +
      'SELECT 2 AS t, 0 AS k, SUM(hits) AS v, 0 AS u, 0 AS b, dim, name FROM v WHERE day_no >= ? GROUP BY dim, name';
    const rows = db.prepare(text).raw(true).all(20_000, 20_000);
    expect(rows).toHaveLength(2 * names.length);
    const json = jsonRowsOf('sqlite', COLUMNS, text)!;
    const folded = JSON.parse(db.prepare(json).pluck(true).get(20_000, 20_000) as string);
    expect(folded).toEqual(rows);
    // No rows: an empty array, not NULL.
    expect(db.prepare(json).pluck(true).get(99_999, 99_999)).toBe('[]');
    db.close();
  });
});
