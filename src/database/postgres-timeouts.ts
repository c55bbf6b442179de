import type { DataSource } from 'typeorm';

interface PgClient {
  query(...args: unknown[]): unknown;
  [TIMED_OUT]?: boolean;
  [GUARDED]?: true;
}
type Release = (err?: Error) => void;

const TIMED_OUT = Symbol('url-shorter:timed-out');
const GUARDED = Symbol('url-shorter:guarded');

/**
 * PostgreSQL's waits are bounded by the pool itself (`connectionTimeoutMillis`: connect and acquire)
 * and by the client's `query_timeout` (both set in the data source options). What pg does not do is
 * drop a client whose query timed out: it goes back to the pool with the unanswered query still on
 * its socket (a network partition). This marks such clients and hands them back with an error, which
 * makes pg-pool destroy them.
 */
export function applyPostgresTimeouts(ds: DataSource): void {
  const driver = ds.driver as unknown as {
    obtainMasterConnection(): Promise<[PgClient, Release]>;
  };
  const obtain = driver.obtainMasterConnection.bind(driver);
  driver.obtainMasterConnection = async () => {
    const [client, release] = await obtain();
    if (!client[GUARDED]) {
      client[GUARDED] = true;
      const query = client.query.bind(client);
      client.query = (...args: unknown[]) => {
        const result = query(...args);
        if (result instanceof Promise) {
          result.catch((err: Error) => {
            if (err?.message === 'Query read timeout') client[TIMED_OUT] = true;
          });
        }
        return result;
      };
    }
    const guardedRelease: Release = (err) =>
      release(err ?? (client[TIMED_OUT] ? new Error('query timed out') : undefined));
    return [client, guardedRelease];
  };
}
