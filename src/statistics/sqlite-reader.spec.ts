import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { threadId } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SqliteReader, type SqliteReaderOptions } from './sqlite-reader';

const dir = mkdtempSync(join(tmpdir(), 'sqlite-reader-'));
const file = join(dir, 'reads.db');
let db: Database.Database;

beforeAll(() => {
  db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.exec('CREATE TABLE t (k INTEGER PRIMARY KEY, v TEXT)');
  db.prepare('INSERT INTO t (k, v) VALUES (?, ?), (?, ?)').run(1, 'eins', 2, 'zwei');
});
afterAll(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

function reader(over: Partial<SqliteReaderOptions> = {}) {
  const lost: string[] = [];
  const r = new SqliteReader({
    file,
    timeoutMs: 1000,
    cacheKib: 512,
    statements: 2,
    idleMs: 60_000,
    onLost: (reason) => lost.push(reason),
    ...over,
  });
  return { r, lost };
}

describe('SqliteReader', () => {
  it('answers a statement’s one value from a thread of its own, with what another connection committed', async () => {
    const { r, lost } = reader();
    try {
      expect(await r.read('SELECT v FROM t WHERE k = ?', [2])).toBe('zwei');
      expect(r.threadId).toBeGreaterThan(0);
      expect(r.threadId).not.toBe(threadId);
      db.prepare('INSERT INTO t (k, v) VALUES (?, ?)').run(3, 'drei');
      expect(await r.read('SELECT json_group_array(v) FROM t ORDER BY k', [])).toBe(
        '["eins","zwei","drei"]',
      );
      expect(await r.read('SELECT v FROM t WHERE k = ?', [99])).toBeNull();
      // Concurrent reads answer each its own, in order; more texts than prepared statements kept.
      const texts = ['SELECT ? + 1', 'SELECT ? * 2', 'SELECT ? - 3'];
      const answers = await Promise.all(
        Array.from({ length: 30 }, (_, i) => r.read(texts[i % 3], [i])),
      );
      expect(answers).toEqual(Array.from({ length: 30 }, (_, i) => [i + 1, i * 2, i - 3][i % 3]));
      expect(r.started).toBe(1);
      expect(lost).toEqual([]);
    } finally {
      await r.close();
      db.prepare('DELETE FROM t WHERE k = 3').run();
    }
  });

  it('rejects a failing statement with SQLite’s code, and the thread reads on', async () => {
    const { r } = reader();
    try {
      await expect(r.read('SELECT nope FROM t', [])).rejects.toMatchObject({
        code: 'SQLITE_ERROR',
      });
      expect(await r.read('SELECT count(*) FROM t', [])).toBe(2);
      expect(r.started).toBe(1);
    } finally {
      await r.close();
    }
  });

  it('writes nothing: its connection is query-only', async () => {
    const { r } = reader();
    try {
      await expect(
        r.read('INSERT INTO t (k, v) VALUES (7, ?) RETURNING k', ['sieben']),
      ).rejects.toThrow(/readonly|query_only/i);
      expect(db.prepare('SELECT count(*) AS n FROM t').get()).toEqual({ n: 2 });
    } finally {
      await r.close();
    }
  });

  it('stops an idle thread and starts a new one for the next read', async () => {
    const { r, lost } = reader({ idleMs: 50 });
    try {
      expect(await r.read('SELECT 1', [])).toBe(1);
      const first = r.threadId;
      await new Promise((done) => setTimeout(done, 300));
      expect(r.threadId).toBeUndefined();
      expect(await r.read('SELECT 2', [])).toBe(2);
      expect(r.threadId).not.toBe(first);
      expect(r.started).toBe(2);
      expect(lost).toEqual([]); // stopped on purpose: nothing to log
    } finally {
      await r.close();
    }
  });

  it('fails the reads of a thread that cannot open the file, and tells why', async () => {
    const { r, lost } = reader({ file: join(dir, 'missing', 'none.db') });
    try {
      await expect(r.read('SELECT 1', [])).rejects.toThrow(
        /directory does not exist|unable to open/i,
      );
      expect(lost[0]).toMatch(/^failed to start: /);
    } finally {
      await r.close();
    }
  });

  it('backs off from a thread that Node refuses to start at once, and says why once', async () => {
    const { r, lost } = reader({ script: 'not-a-path.mjs', retryMs: 60_000 });
    try {
      await expect(r.read('SELECT 1', [])).rejects.toMatchObject({ code: 'ERR_WORKER_PATH' });
      await expect(r.read('SELECT 1', [])).rejects.toThrow(/was lost/);
      expect(lost).toHaveLength(1);
      expect(lost[0]).toMatch(/^failed to start: /);
      expect(r.started).toBe(0);
    } finally {
      await r.close();
    }
  });

  it('takes a thread that answers nothing for hung: its reads fail and the next read starts another', async () => {
    // A script that takes reads but never answers them.
    const silent = join(dir, 'silent.worker.mjs');
    writeFileSync(
      silent,
      "import { parentPort } from 'node:worker_threads'; parentPort.on('message', () => {}); parentPort.postMessage({ type: 'ready' });",
    );
    const { r, lost } = reader({
      script: silent,
      timeoutMs: 50,
      stallMarginMs: 50,
      retryMs: 300,
    });
    try {
      await expect(r.read('SELECT 1', [])).rejects.toThrow(/answered nothing for 100 ms/);
      expect(lost).toEqual(['answered nothing for 100 ms']);
      // For retryMs, reads fail at once: no thread started, nothing logged per read.
      await expect(r.read('SELECT 1', [])).rejects.toThrow(/was lost/);
      expect(r.started).toBe(1);
      await new Promise((done) => setTimeout(done, 350));
      await expect(r.read('SELECT 1', [])).rejects.toThrow(/answered nothing/);
      expect(r.started).toBe(2);
      expect(lost).toHaveLength(2);
    } finally {
      await r.close();
    }
  });

  it('fails the reads under way when it is closed, and every read after', async () => {
    const { r } = reader();
    const long =
      'WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3000000) SELECT count(*) FROM n';
    const under = r.read(long, []).then(
      () => 'answered',
      (err: Error) => err.message,
    );
    await new Promise((done) => setTimeout(done, 100));
    await r.close();
    expect(await under).toMatch(/closed/);
    await expect(r.read('SELECT 1', [])).rejects.toThrow(/closed/);
  });
});
