import { createPool } from 'mysql2';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config/config';
import { dataSourceOptions, MYSQL_PREPARED_MAX } from './data-source';

describe('dataSourceOptions', () => {
  it("bounds mysql2's prepared statements per connection (its LRU allocates the bound up front)", async () => {
    const options = dataSourceOptions(
      loadConfig({ DB_URL: 'mysql://app:pw@127.0.0.1:3306/shorts' }),
    );
    const extra = (options as { extra: Record<string, unknown> }).extra;
    // The pool as TypeORM's MysqlDriver makes it (the options' extra go to createPool); it
    // connects only when a query asks, so no server is needed.
    const pool = createPool({ host: '127.0.0.1', ...extra });
    const config = (
      pool as unknown as { config: { connectionConfig: { maxPreparedStatements: number } } }
    ).config.connectionConfig;
    expect(config.maxPreparedStatements).toBe(MYSQL_PREPARED_MAX);
    expect(MYSQL_PREPARED_MAX).toBeLessThanOrEqual(100);
    await pool.promise().end();
  });
});
