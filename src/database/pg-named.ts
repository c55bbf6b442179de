import type { DataSource } from 'typeorm';

/** What a pooled pg client is asked for (a named statement). */
interface PgClient {
  query(config: { name: string; text: string; values: unknown[] }): Promise<{ rows: unknown[] }>;
}

/**
 * Statements sent to PostgreSQL by name on a client of TypeORM's pool: each connection parses and
 * plans a text once, then binds the parameters. Sent unnamed, as TypeORM's query() sends every
 * statement, the server parses and plans it each time (1-3 ms of the server's CPU for a page of
 * the own list or a year of statistics). Each text gets its own name (`{prefix}_{n}`), never given
 * to another text (pg refuses a known name with another text, and each pooled connection keeps
 * what it prepared); past `max` texts, the others go through TypeORM unnamed, so the server's
 * memory of prepared plans stays bounded per connection. The client goes back to the pool as
 * TypeORM's query runner hands it back (a broken one is dropped by pg-pool, one that timed out by
 * applyPostgresTimeouts); a driver's error is the same as through TypeORM (errors.ts reads the
 * driver's error either way). The rows are pg's, as TypeORM's query() returns them.
 */
export class PgNamedStatements {
  private readonly names = new Map<string, string>();

  constructor(
    private readonly ds: DataSource,
    private readonly prefix: string,
    private readonly max: number,
  ) {}

  async query<Row = Record<string, unknown>>(text: string, values: unknown[]): Promise<Row[]> {
    let name = this.names.get(text);
    if (name === undefined && this.names.size < this.max) {
      name = `${this.prefix}_${this.names.size}`;
      this.names.set(text, name);
    }
    if (name === undefined) return (await this.ds.query(text, values)) as Row[];
    const driver = this.ds.driver as unknown as {
      obtainMasterConnection(): Promise<[PgClient, (err?: Error) => void]>;
    };
    const [client, release] = await driver.obtainMasterConnection();
    try {
      return (await client.query({ name, text, values })).rows as Row[];
    } finally {
      release();
    }
  }
}
