import type { DataSource } from 'typeorm';
import { POOL_ACQUIRE_TIMEOUT } from './errors';

/** What this module needs of a mysql2 pool connection. */
interface PoolConnection {
  query(...args: unknown[]): unknown;
  release(): void;
  destroy(): void;
  [GUARDED]?: true;
}

const GUARDED = Symbol('url-shorter:timeouts');
const QUERY_TIMEOUT = 'PROTOCOL_SEQUENCE_TIMEOUT';

function acquireTimeout(ms: number): Error {
  return Object.assign(new Error(`No database connection within ${ms} ms`), {
    code: POOL_ACQUIRE_TIMEOUT,
  });
}

/**
 * Every query on the connection gets a timeout (mysql2's per-query `timeout`), and a connection
 * whose query timed out is destroyed: mysql2 leaves the unanswered command on it, so the next
 * query there would wait behind it forever (a network partition keeps sockets open but silent).
 */
function guardQueries(conn: PoolConnection, ms: number): PoolConnection {
  if (conn[GUARDED]) return conn;
  conn[GUARDED] = true;
  const query = conn.query.bind(conn);
  conn.query = (...args: unknown[]) => {
    const first = args[0];
    if (typeof first === 'string') args[0] = { sql: first, timeout: ms };
    else if (first && typeof first === 'object' && !('timeout' in first)) {
      args[0] = { ...first, timeout: ms };
    }
    const last = args.length - 1;
    const callback = args[last];
    if (typeof callback === 'function') {
      args[last] = (err: { code?: string } | null, ...rest: unknown[]) => {
        if (err?.code === QUERY_TIMEOUT) conn.destroy();
        return (callback as (...a: unknown[]) => unknown)(err, ...rest);
      };
    }
    return query(...args);
  };
  return conn;
}

/**
 * Bounds every wait on MySQL/MariaDB by `ms` (DB_TIMEOUT_MS), so a database that is down or silent
 * answers quickly (503) instead of hanging callers:
 * - connect: mysql2's `connectTimeout` (set in the data source options);
 * - acquire: a caller waiting for a pool connection gives up after `ms` (a connection that arrives
 *   later goes straight back to the pool);
 * - query: see guardQueries.
 */
export function applyMysqlTimeouts(ds: DataSource, ms: number): void {
  const driver = ds.driver as unknown as { obtainMasterConnection(): Promise<PoolConnection> };
  const obtain = driver.obtainMasterConnection.bind(driver);
  driver.obtainMasterConnection = () =>
    new Promise<PoolConnection>((resolve, reject) => {
      let settled = false;
      const timer = setTimeout(() => {
        settled = true;
        reject(acquireTimeout(ms));
      }, ms);
      obtain().then(
        (conn) => {
          if (settled) return conn.release();
          settled = true;
          clearTimeout(timer);
          resolve(guardQueries(conn, ms));
        },
        (err: unknown) => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          reject(err instanceof Error ? err : new Error(String(err)));
        },
      );
    });
}
