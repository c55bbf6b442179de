// The statistics reads' thread (SqliteReader, served by src/database/thread.worker.mjs): runs
// readStatement's statements on a connection of its own to the SQLite file, one at a time, and
// answers each one's single value (the JSON text of jsonRowsOf), so that the main thread does not
// wait for them. Plain JavaScript that needs nothing of the app but better-sqlite3: Node loads it as
// it is, from dist/ (nest-cli.json copies it there) and from src/ (Vitest), and the thread starts
// fast. It only reads: `query_only` refuses any write on this connection.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const Database = require('better-sqlite3');

/** SqliteReaderInit → a ThreadService of SqliteRead → the statement's one value, or null. */
export function openThread({ file, timeoutMs, cacheKib, statements }) {
  const db = new Database(file, { fileMustExist: true, timeout: timeoutMs }); // SQLite's busy timeout
  try {
    db.pragma(`cache_size = -${cacheKib}`);
    db.pragma('query_only = ON');
  } catch (err) {
    db.close();
    throw err;
  }
  /** Prepared statements by text, the oldest dropped first beyond `statements`. */
  const prepared = new Map();
  return {
    answer({ text, params }) {
      let st = prepared.get(text);
      if (st === undefined) {
        st = db.prepare(text).pluck(true);
        if (prepared.size >= statements) prepared.delete(prepared.keys().next().value);
        prepared.set(text, st);
      }
      return st.get(...params) ?? null;
    },
  };
}
