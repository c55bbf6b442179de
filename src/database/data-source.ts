import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { DataSourceOptions } from 'typeorm';
import type { AppConfig } from '../config/config';
import { MIGRATIONS } from './migrations';
import { sqliteOptions } from './sqlite-options';

/** mysql2's bound of prepared statements per connection (its default is 16,000). */
export const MYSQL_PREPARED_MAX = 16;

/**
 * TypeORM options for the configured database. Migrations run at start; never synchronize. The
 * entities are the ones the feature modules register (`TypeOrmModule.forFeature`, with
 * `autoLoadEntities` in DatabaseModule): each module registers only its own.
 */
export function dataSourceOptions(config: AppConfig): DataSourceOptions {
  const common = {
    migrations: MIGRATIONS,
    migrationsRun: true,
    migrationsTransactionMode: 'each' as const,
    synchronize: false,
    logging: false,
  };
  if (config.db.type === 'mysql' && config.db.mysql) {
    const m = config.db.mysql;
    return {
      ...common,
      type: 'mysql',
      host: m.host,
      port: m.port,
      username: m.username,
      password: m.password,
      database: m.database,
      charset: 'utf8mb4_unicode_ci',
      timezone: 'Z',
      dateStrings: false,
      connectTimeout: config.dbTimeoutMs,
      // No stack captured for every query by mysql2's promise wrapper (about 20 µs a query, 3 %
      // of a list page's CPU): TypeORM throws its own QueryFailedError from the awaiting
      // function, whose stack has the app's callers (V8's async frames) either way.
      trace: false,
      extra: {
        connectionLimit: 20,
        // mysql2 keeps a cache of prepared statements per connection, and its LRU allocates four
        // arrays of the bound up front: with the default of 16,000 that was 0.5 MB per connection,
        // about 10 MB of heap for a full pool, for a cache the app never fills (TypeORM and the
        // app send text queries, `query()`, never `execute()`). docs/performance.md, "Memory".
        maxPreparedStatements: MYSQL_PREPARED_MAX,
      },
    };
  }
  if (config.db.type === 'postgres' && config.db.postgres) {
    const p = config.db.postgres;
    const ms = config.dbTimeoutMs;
    return {
      ...common,
      type: 'postgres',
      host: p.host,
      port: p.port,
      username: p.username,
      password: p.password,
      database: p.database,
      applicationName: 'url-shorter',
      connectTimeoutMS: ms,
      // pg-pool: size, connect/acquire timeout; pg: a client-side query timeout (a silent network)
      // and the server-side statement timeout (a slow query).
      extra: {
        max: 20,
        connectionTimeoutMillis: ms,
        query_timeout: ms,
        statement_timeout: ms,
        keepAlive: true,
        // No parallel workers for the app's statements: they are short, many run at once, and a
        // Gather's workers cost more to start than they save (a page of the own list by two tags
        // over 100,000 shorts: 18 ms with two workers, 5.8 ms without, and two more processes'
        // CPU; docs/performance.md). An operator's own queries keep the server's setting.
        options: '-c max_parallel_workers_per_gather=0',
      },
    };
  }
  mkdirSync(dirname(config.db.file), { recursive: true });
  return { ...common, ...sqliteOptions(config.db.file, config.dbTimeoutMs) };
}
