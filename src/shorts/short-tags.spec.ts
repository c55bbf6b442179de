import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { tagRowsInsertParams, tagRowsInsertSql } from './short-tags';

const ONE = 'SELECT s.id, ?, ?, ?, s.created_at FROM shorts s WHERE s.id = ?';
const INTO = `(short_id, tag, label, space, created_at) ${ONE} UNION ALL ${ONE}`;

describe('tagRowsInsertSql', () => {
  it('reads every row from its short, in one compound SELECT', () => {
    expect(tagRowsInsertSql(2)).toBe(`INSERT INTO short_tags ${INTO}`);
  });

  it("ignores a taken key (short, tag) in each engine's own form", () => {
    expect(tagRowsInsertSql(2, 'mysql')).toBe(`INSERT IGNORE INTO short_tags ${INTO}`);
    expect(tagRowsInsertSql(2, 'sqlite')).toBe(`INSERT OR IGNORE INTO short_tags ${INTO}`);
    expect(tagRowsInsertSql(2, 'postgres')).toBe(
      `INSERT INTO short_tags ${INTO} ON CONFLICT (short_id, tag) DO NOTHING`,
    );
  });

  it("SQLite: copies the short's created_at, skips a missing short and a taken key", () => {
    const db = new Database(':memory:');
    db.exec(`CREATE TABLE shorts (id TEXT PRIMARY KEY, created_at TEXT NOT NULL);
      CREATE TABLE short_tags (short_id TEXT, tag TEXT, label TEXT, space TEXT, created_at TEXT,
        PRIMARY KEY (short_id, tag))`);
    db.prepare('INSERT INTO shorts VALUES (?, ?)').run('a', '2026-01-02 03:04:05.678');
    const rows = [
      { shortId: 'a', space: 'u:1', label: 'Herbst' },
      { shortId: 'gone', space: 'u:1', label: 'Herbst' },
    ];
    expect(db.prepare(tagRowsInsertSql(2)).run(...tagRowsInsertParams(rows)).changes).toBe(1);
    const again = db.prepare(tagRowsInsertSql(1, 'sqlite'));
    expect(again.run(...tagRowsInsertParams([{ ...rows[0], label: 'HERBST' }])).changes).toBe(0);
    expect(db.prepare('SELECT * FROM short_tags').all()).toEqual([
      {
        short_id: 'a',
        tag: 'herbst',
        label: 'Herbst',
        space: 'u:1',
        created_at: '2026-01-02 03:04:05.678',
      },
    ]);
  });
});
