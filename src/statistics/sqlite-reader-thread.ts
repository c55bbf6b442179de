import Database from 'better-sqlite3';
import type { ThreadService } from '../database/worker-thread';

/** What the reads' thread is started with (SqliteReader). */
export interface SqliteReaderInit {
  /** The SQLite file (never `:memory:`: another connection would open another database). */
  file: string;
  /** SQLite's busy timeout on the thread's connection (DB_TIMEOUT_MS). */
  timeoutMs: number;
  /** Its page cache, in KiB (SQLITE_CACHE_KIB). */
  cacheKib: number;
  /** Prepared statements kept on the thread. */
  statements: number;
}

/** A statement and its parameters; answered: its one value (plucked), or null. */
export interface SqliteRead {
  text: string;
  params: readonly unknown[];
}

/**
 * The statistics reads' thread (SqliteReader): runs readStatement's statements on a connection of
 * its own to the SQLite file, one at a time, and answers each one's single value (the JSON text of
 * jsonRows), so that the main thread does not wait for them. It needs nothing of the app but
 * better-sqlite3, and only reads: `query_only` refuses any write on this connection.
 */
export function openThread({
  file,
  timeoutMs,
  cacheKib,
  statements,
}: SqliteReaderInit): ThreadService<SqliteRead, unknown> {
  const db = new Database(file, { fileMustExist: true, timeout: timeoutMs }); // SQLite's busy timeout
  try {
    db.pragma(`cache_size = -${cacheKib}`);
    db.pragma('query_only = ON');
  } catch (err) {
    db.close();
    throw err;
  }
  /** Prepared statements by text, the oldest dropped first beyond `statements`. */
  const prepared = new Map<string, Database.Statement>();
  return {
    answer({ text, params }) {
      let st = prepared.get(text);
      if (st === undefined) {
        st = db.prepare(text).pluck(true);
        if (prepared.size >= statements) prepared.delete(prepared.keys().next().value as string);
        prepared.set(text, st);
      }
      return st.get(...params) ?? null;
    },
  };
}
