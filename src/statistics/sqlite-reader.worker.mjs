// The statistics reads' thread (SqliteReader): runs readStatement's statements on a connection of
// its own to the SQLite file, one at a time, and answers each one's single value (the JSON text of
// jsonRows), so that the main thread does not wait for them. Plain JavaScript that needs nothing
// of the app: Node loads it as it is, from dist/ (nest-cli.json copies it there) and from src/
// (Vitest). It only reads: `query_only` refuses any write on this connection.
import { createRequire } from 'node:module';
import { parentPort, workerData } from 'node:worker_threads';

const require = createRequire(import.meta.url);
const Database = require('better-sqlite3');

/** An error as it crosses the thread boundary (what SqliteReader and the log read of it). */
const errorOf = (err) => ({
  name: String(err?.name ?? 'Error'),
  message: String(err?.message ?? err),
  code: typeof err?.code === 'string' ? err.code : undefined,
});

const { file, timeoutMs, cacheKib, statements } = workerData;
let db;
try {
  db = new Database(file, { fileMustExist: true, timeout: timeoutMs }); // timeout: SQLite's busy timeout
  db.pragma(`cache_size = -${cacheKib}`);
  db.pragma('query_only = ON');
} catch (err) {
  parentPort.postMessage({ type: 'failed', error: errorOf(err) });
  process.exit(1);
}

/** Prepared statements by text, the oldest dropped first beyond `statements`. */
const prepared = new Map();

parentPort.on('message', ({ seq, text, params }) => {
  try {
    let st = prepared.get(text);
    if (st === undefined) {
      st = db.prepare(text).pluck(true);
      if (prepared.size >= statements) prepared.delete(prepared.keys().next().value);
      prepared.set(text, st);
    }
    parentPort.postMessage({ type: 'value', seq, value: st.get(...params) ?? null });
  } catch (err) {
    parentPort.postMessage({ type: 'error', seq, error: errorOf(err) });
  }
});
parentPort.postMessage({ type: 'ready' });
