import Database from 'better-sqlite3';
import { sqliteDatetime } from '../database/sqlite-batch-source';
import { SQLITE_BUSY_SPIN_MS, whileBusy } from '../database/sqlite-busy';
import { sqliteOptions } from '../database/sqlite-options';
import type { ThreadService } from '../database/worker-thread';
import { bulkWrite, type BulkTxInput, type BulkTxOutcome } from './short-bulk-tx';

/** What the bulk edits' thread is started with (BulkWriterThread). */
export interface BulkThreadInit {
  /** The SQLite file (never `:memory:`: another connection would open another database). */
  file: string;
  timeoutMs: number;
}

/** Prepared statements kept (the edit's texts: a few shapes, by the sizes of their lists). */
const STATEMENTS = 32;

/**
 * The bulk edits' thread (started by BulkWriterThread on a SQLite file): its own better-sqlite3
 * connection, opened as the app's (WAL, foreign keys, the busy handling of sqlite-busy.ts), runs
 * each edit's transaction (bulkWrite) synchronously from BEGIN IMMEDIATE to COMMIT, as runTx does
 * on the app's connection, but off the main event loop: 500 shorts given 10 tags each are 5,000
 * rows of short_tags and took 45–70 ms there. WAL lets the app's connection read meanwhile; its
 * writes wait for the lock asynchronously (sqlite-busy.ts). Loads neither TypeORM nor Nest.
 */
export function openThread(
  init: BulkThreadInit,
): ThreadService<BulkTxInput, Promise<BulkTxOutcome>> {
  const { prepareDatabase } = sqliteOptions(init.file, init.timeoutMs);
  const db = new Database(init.file, { timeout: init.timeoutMs, fileMustExist: true });
  try {
    prepareDatabase(db);
    db.pragma('journal_mode = WAL');
    db.pragma(`busy_timeout = ${SQLITE_BUSY_SPIN_MS}`);
  } catch (err) {
    db.close();
    throw err;
  }
  const statements = new Map<string, Database.Statement>();
  const prepared = (sql: string): Database.Statement => {
    let st = statements.get(sql);
    if (st) {
      statements.delete(sql);
    } else {
      st = db.prepare(sql);
      if (statements.size >= STATEMENTS) {
        statements.delete(statements.keys().next().value as string);
      }
    }
    statements.set(sql, st);
    return st;
  };
  const param = (v: unknown) => (v instanceof Date ? sqliteDatetime(v) : v);
  return {
    answer(input) {
      const work = db.transaction((): BulkTxOutcome => {
        const gen = bulkWrite({ engine: 'sqlite', lock: '' }, input);
        let step = gen.next();
        while (!step.done) {
          const s = step.value;
          const st = prepared(s.sql);
          const params = s.params.map(param);
          step = gen.next(s.kind === 'rows' ? st.all(...params) : st.run(...params).changes);
        }
        return step.value;
      });
      // Only the start waits while another connection writes (nothing is written before it).
      return whileBusy(
        async () => work.immediate(),
        () => true,
        init.timeoutMs,
      );
    },
  };
}
