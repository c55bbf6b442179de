import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { CommitOutcomeUnknownError } from '../../src/database/apply-once';
import { StatisticsRecorder } from '../../src/statistics/recorder';
import { keys } from '../../src/statistics/stats-writer';
import { STATS_THREAD_IDLE_MS, StatsWriterThread } from '../../src/statistics/stats-writer-thread';
import { hourOf } from '../../src/statistics/traits';
import { createTestApp, type TestApp, useTestApp } from '../support/app';
import { createTestDatabase, TEST_DB_KIND } from '../support/database';
import { insertShort } from '../support/shorts';

/**
 * On a SQLite file the statistics batches are written by a worker thread with its own connection
 * (StatsWriterThread): the main thread's connection never runs them, a lost worker loses and
 * doubles nothing, and shutdown writes everything through it. MariaDB and PostgreSQL write on the
 * main thread as before (nothing of this applies).
 */
describe.skipIf(TEST_DB_KIND !== 'sqlite')(
  'statistics written on a thread of their own (SQLite file)',
  () => {
    const t = useTestApp();
    const recorder = () => t.app.get(StatisticsRecorder);
    const thread = () => recorder().writer as StatsWriterThread;

    async function follow(code: string, n: number): Promise<void> {
      for (let i = 0; i < n; i++) {
        const res = await t.fetch(`/s/${code}`, {
          headers: { 'x-forwarded-for': `203.0.113.${i}` },
        });
        expect(res.status).toBe(302);
      }
    }

    async function visitsOf(app: TestApp, shortId: string): Promise<number> {
      const rows = await app.query(
        'SELECT COALESCE(SUM(visits), 0) AS n FROM stats_hourly WHERE short_id = ?',
        [shortId],
      );
      return Number(rows[0].n);
    }

    it('the batch is written by the worker: the main connection prepares none of its statements', async () => {
      expect(thread()).toBeInstanceOf(StatsWriterThread);
      const s = await insertShort(t, { url: 'https://example.com/thread' });
      await follow(s.code, 5);
      // Every statement of the main connection goes through better-sqlite3's prepare.
      const db = (
        t.ds.driver as unknown as { databaseConnection: { prepare(sql: string): unknown } }
      ).databaseConnection;
      const prepare = db.prepare.bind(db);
      const seen: string[] = [];
      db.prepare = (sql: string) => {
        seen.push(sql);
        return prepare(sql);
      };
      try {
        await recorder().flush();
      } finally {
        db.prepare = prepare;
      }
      expect(recorder().pending()).toBe(0);
      expect(thread().started).toBeGreaterThanOrEqual(1);
      expect(thread().threadId).toBeGreaterThan(0);
      // (The background jobs of the main thread may prune applied_batches meanwhile: not the batch.)
      const batch = /INSERT[^]*INTO "?(applied_batches|stats_)|UPDATE shorts SET uses/;
      expect(seen.filter((sql) => batch.test(sql))).toEqual([]);
      expect(await visitsOf(t, s.id)).toBe(5);
      const [row] = await t.query('SELECT uses FROM shorts WHERE id = ?', [s.id]);
      expect(Number(row.uses)).toBe(5);
    });

    it('a batch retried after its worker died is not written twice (applyOnce by batch id)', async () => {
      const s = await insertShort(t, { url: 'https://example.com/retried' });
      const batch = new Map([[keys.hourly(s.id, hourOf(Date.now()), 'visits'), 3]]);
      const id = randomUUID();
      const writer = thread();
      expect(await writer.write(id, batch)).toBe(true);
      const before = writer.started;
      await (writer as unknown as { worker: { terminate(): Promise<number> } }).worker.terminate();
      // Its acknowledgement lost: the retry, on a new worker, finds the id and writes nothing.
      expect(await writer.write(id, batch)).toBe(false);
      expect(writer.started).toBe(before + 1);
      expect(await visitsOf(t, s.id)).toBe(3);
    });

    it('a worker killed during a flush: the batch is kept with its id and written once by the next', async () => {
      const s = await insertShort(t, { url: 'https://example.com/killed' });
      await follow(s.code, 7);
      // Counted (the follows' counts become the buffer's aggregate keys): one batch to kill.
      expect(recorder().pending()).toBeGreaterThan(0);
      const writer = thread();
      const worker = (writer as unknown as { worker: { terminate(): Promise<number> } }).worker;
      const flushing = recorder()['buffer'].flush(writer.write);
      void worker.terminate(); // before or after its COMMIT: the outcome is unknown either way
      const failed = await flushing.then(
        () => null,
        (err: unknown) => err,
      );
      if (failed) {
        expect(failed).toBeInstanceOf(CommitOutcomeUnknownError);
        expect(recorder().pending()).toBeGreaterThan(0); // kept, not merged into new batches
      }
      await recorder().flush();
      expect(recorder().pending()).toBe(0);
      expect(await visitsOf(t, s.id)).toBe(7);
      const [row] = await t.query('SELECT uses FROM shorts WHERE id = ?', [s.id]);
      expect(Number(row.uses)).toBe(7);
    });

    it('an idle worker is stopped (its memory freed) and the next batch starts another', async () => {
      expect(STATS_THREAD_IDLE_MS).toBeLessThanOrEqual(60_000);
      const s = await insertShort(t, { url: 'https://example.com/idle' });
      const file = (t.ds.options as { database: string }).database;
      const writer = new StatsWriterThread({ file, timeoutMs: 5_000, idleMs: 100 });
      try {
        const batch = (n: number) =>
          new Map([[keys.hourly(s.id, hourOf(Date.now()), 'visits'), n]]);
        expect(await writer.write(randomUUID(), batch(2))).toBe(true);
        expect(writer.threadId).toBeGreaterThan(0);
        await new Promise((resolve) => setTimeout(resolve, 400));
        expect(writer.threadId).toBeUndefined();
        expect(await writer.write(randomUUID(), batch(3))).toBe(true);
        expect(writer.started).toBe(2);
        expect(await visitsOf(t, s.id)).toBe(5);
      } finally {
        await writer.close();
      }
    });

    it('a deleted short told to the worker: its aggregates are dropped, the others written', async () => {
      const kept = await insertShort(t, { url: 'https://example.com/kept' });
      const gone = await insertShort(t, { url: 'https://example.com/gone' });
      await follow(kept.code, 2);
      await follow(gone.code, 2);
      const asked = thread().asked;
      await t.ds.query('DELETE FROM shorts WHERE id = ?', [gone.id]);
      thread().gone([gone.id]);
      await recorder().flush();
      expect(thread().asked).toBe(asked); // known from the event, not asked
      expect(recorder().pending()).toBe(0);
      expect(await visitsOf(t, kept.id)).toBe(2);
      expect(await visitsOf(t, gone.id)).toBe(0);
    });
  },
);

describe.skipIf(TEST_DB_KIND !== 'sqlite')('shutdown with a worker writing the statistics', () => {
  it('closing the app writes everything buffered through the worker, then stops it', async () => {
    const db = await createTestDatabase();
    let t = await createTestApp(db.env);
    try {
      const s = await insertShort(t, { url: 'https://example.com/shutdown' });
      for (let i = 0; i < 9; i++) expect((await t.fetch(`/s/${s.code}`)).status).toBe(302);
      const recorder = t.app.get(StatisticsRecorder);
      expect(recorder.pending()).toBeGreaterThan(0);
      expect(recorder.writer).toBeInstanceOf(StatsWriterThread);
      await t.close();
      expect(recorder.pending()).toBe(0);
      await expect(recorder.writer.write(randomUUID(), new Map())).rejects.toThrow(/closed/);
      t = await createTestApp(db.env);
      const rows = await t.query(
        'SELECT COALESCE(SUM(visits), 0) AS n FROM stats_hourly WHERE short_id = ?',
        [s.id],
      );
      expect(Number(rows[0].n)).toBe(9);
    } finally {
      await t.close();
      await db.drop();
    }
  });
});
