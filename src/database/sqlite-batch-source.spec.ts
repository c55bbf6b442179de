import Database from 'better-sqlite3';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DateUtils } from 'typeorm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applyOnce, CommitOutcomeUnknownError } from './apply-once';
import { isForeignKeyViolation, isUniqueViolation } from './errors';
import {
  SqliteBatchSource,
  sqliteDatetime,
  STATEMENT_CACHE,
  SqliteBatchRunner,
} from './sqlite-batch-source';

describe('SqliteBatchSource (the statistics thread’s connection without TypeORM)', () => {
  let dir: string;
  let file: string;
  let ds: SqliteBatchSource;
  let other: Database.Database;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'batch-source-'));
    file = join(dir, 'db.sqlite');
    other = new Database(file);
    other.pragma('journal_mode = WAL');
    other.exec(`
      CREATE TABLE applied_batches (id varchar(36) PRIMARY KEY NOT NULL, applied_at datetime(3) NOT NULL);
      CREATE TABLE parents (id varchar(36) PRIMARY KEY NOT NULL, n int NOT NULL DEFAULT 0);
      CREATE TABLE children (parent_id varchar(36) NOT NULL REFERENCES parents (id), n int NOT NULL);
      INSERT INTO parents (id) VALUES ('p');
    `);
    ds = new SqliteBatchSource(file, 300);
  });

  afterEach(() => {
    ds.close();
    other.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const count = (n: number) => (r: SqliteBatchRunner) =>
    r.query('UPDATE parents SET n = n + ? WHERE id = ?', [n, 'p']).then(() => undefined);
  const stored = () =>
    (other.prepare("SELECT n FROM parents WHERE id = 'p'").get() as { n: number }).n;

  it('writes the batch id with the date as TypeORM writes it on SQLite', async () => {
    for (const d of [
      '2026-01-02T03:04:05.006Z',
      '1999-12-31T23:59:59.999Z',
      '2030-06-15T00:00:00.000Z',
    ]) {
      const date = new Date(d);
      expect(sqliteDatetime(date)).toBe(DateUtils.mixedDateToUtcDatetimeString(date));
    }
    const id = randomUUID();
    const before = Date.now();
    expect(await applyOnce(ds, id, count(1))).toBe(true);
    const row = other.prepare('SELECT applied_at FROM applied_batches WHERE id = ?').get(id) as {
      applied_at: string;
    };
    expect(row.applied_at).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}$/);
    const at = Date.parse(`${row.applied_at.replace(' ', 'T')}Z`);
    expect(at).toBeGreaterThanOrEqual(before - 1);
    expect(at).toBeLessThanOrEqual(Date.now() + 1);
  });

  it('a batch id written before: the batch is not written again', async () => {
    const id = randomUUID();
    expect(await applyOnce(ds, id, count(5))).toBe(true);
    expect(await applyOnce(ds, id, count(5))).toBe(false);
    expect(stored()).toBe(5);
    expect(ds.createQueryRunner().isTransactionActive).toBe(false);
  });

  it('a write that fails leaves nothing behind, its id included: the retry writes it', async () => {
    const id = randomUUID();
    const failing = async (r: SqliteBatchRunner) => {
      await count(3)(r);
      await r.query('INSERT INTO children (parent_id, n) VALUES (?, ?)', ['missing', 1]);
    };
    const err = await applyOnce(ds, id, failing).catch((e: unknown) => e);
    expect(isForeignKeyViolation(err)).toBe(true); // foreign keys on, the driver's error classified
    expect(stored()).toBe(0);
    expect(other.prepare('SELECT COUNT(*) AS n FROM applied_batches').get()).toEqual({ n: 0 });
    expect(await applyOnce(ds, id, count(3))).toBe(true);
    expect(stored()).toBe(3);
  });

  it('a COMMIT that fails: outcome unknown, and the next batch does not run inside that transaction', async () => {
    const id = randomUUID();
    // A deferred foreign key fails only at COMMIT, and SQLite keeps the transaction open then.
    const deferred = async (r: SqliteBatchRunner) => {
      await r.query('PRAGMA defer_foreign_keys = ON');
      await count(2)(r);
      await r.query('INSERT INTO children (parent_id, n) VALUES (?, ?)', ['missing', 1]);
    };
    const err = await applyOnce(ds, id, deferred).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CommitOutcomeUnknownError);
    expect(ds.createQueryRunner().isTransactionActive).toBe(false);
    expect(stored()).toBe(0);
    // The retry with the same id writes it (nothing was committed); another connection can write.
    expect(await applyOnce(ds, id, count(2))).toBe(true);
    expect(stored()).toBe(2);
    other.prepare("UPDATE parents SET n = n + 1 WHERE id = 'p'").run();
    expect(stored()).toBe(3);
  });

  it('answers as TypeORM’s runner: rows of a read (RETURNING too), changes of a write', async () => {
    const r = ds.createQueryRunner();
    const read = await r.query('SELECT id, n FROM parents WHERE id = ?', ['p'], true);
    expect(read.records).toEqual([{ id: 'p', n: 0 }]);
    const write = await r.query('UPDATE parents SET n = ? WHERE id = ?', [true, 'p'], true);
    expect(write.affected).toBe(1);
    expect(stored()).toBe(1); // a boolean bound as 1
    const returning = await r.query(
      'INSERT INTO parents (id) VALUES (?), (?) ON CONFLICT (id) DO NOTHING RETURNING id',
      ['p', 'q'],
      true,
    );
    expect(returning.records).toEqual([{ id: 'q' }]);
    expect(await ds.query('SELECT id FROM parents ORDER BY id')).toEqual([
      { id: 'p' },
      { id: 'q' },
    ]);
  });

  it('a unique violation is classified as TypeORM’s was', async () => {
    const err = await ds
      .createQueryRunner()
      .query('INSERT INTO parents (id) VALUES (?)', ['p'])
      .catch((e: unknown) => e);
    expect(isUniqueViolation(err)).toBe(true);
  });

  it('waits for another writer without blocking, then writes; gives up busy after its timeout', async () => {
    other.prepare('BEGIN IMMEDIATE').run();
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 5);
    const writing = applyOnce(ds, randomUUID(), count(1));
    await new Promise((r) => setTimeout(r, 100));
    other.prepare('COMMIT').run();
    expect(await writing).toBe(true);
    clearInterval(ticker);
    expect(ticks).toBeGreaterThan(5); // the event loop ran while it waited
    expect(stored()).toBe(1);

    other.prepare('BEGIN IMMEDIATE').run();
    const started = Date.now();
    const err = await applyOnce(ds, randomUUID(), count(1)).catch((e: unknown) => e);
    other.prepare('ROLLBACK').run();
    expect((err as { code?: string }).code).toBe('SQLITE_BUSY');
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    expect(ds.createQueryRunner().isTransactionActive).toBe(false);
    expect(await applyOnce(ds, randomUUID(), count(1))).toBe(true);
    expect(stored()).toBe(2);
  });

  it('keeps at most STATEMENT_CACHE prepared statements, the ones used last', async () => {
    const r = ds.createQueryRunner();
    for (let rows = 1; rows <= STATEMENT_CACHE * 3; rows++) {
      const marks = Array.from({ length: rows }, () => '?').join(', ');
      await r.query(`SELECT id FROM parents WHERE id IN (${marks})`, Array(rows).fill('p'));
    }
    const cached = (r as unknown as { statements: Map<string, unknown> }).statements;
    expect(cached.size).toBe(STATEMENT_CACHE);
    const last = `SELECT id FROM parents WHERE id IN (${Array(STATEMENT_CACHE * 3)
      .fill('?')
      .join(', ')})`;
    expect(cached.has(last)).toBe(true);
    expect(cached.has('SELECT id FROM parents WHERE id IN (?)')).toBe(false);
  });
});
