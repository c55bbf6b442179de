import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createConnection, type Connection } from 'mysql2/promise';
import { Client as PgClient } from 'pg';

/**
 * Which database the e2e run uses: TEST_DB_URL=mysql://root@127.0.0.1:3306 selects MariaDB,
 * TEST_DB_URL=postgres://postgres@127.0.0.1:5432 PostgreSQL; unset, SQLite.
 */
export const TEST_DB_URL = process.env.TEST_DB_URL;
export const TEST_DB_KIND: 'sqlite' | 'mariadb' | 'postgres' = !TEST_DB_URL
  ? 'sqlite'
  : /^postgres(ql)?:/.test(TEST_DB_URL)
    ? 'postgres'
    : 'mariadb';

/** The shared Redis of the e2e run (tests of several instances); a private one is PrivateRedis. */
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

export interface TestDatabase {
  env: Record<string, string>;
  drop(): Promise<void>;
}

/** A connection to the PostgreSQL server of TEST_DB_URL, to its maintenance database `postgres`. */
export async function postgresAdmin(): Promise<PgClient> {
  const server = new URL(TEST_DB_URL as string);
  const admin = new PgClient({
    host: server.hostname,
    port: Number(server.port || 5432),
    user: decodeURIComponent(server.username || 'postgres'),
    password: decodeURIComponent(server.password),
    database: 'postgres',
  });
  await admin.connect();
  return admin;
}

/** A connection to the MariaDB server of TEST_DB_URL, to no database in particular. */
export async function mariadbAdmin(): Promise<Connection> {
  const server = new URL(TEST_DB_URL as string);
  return createConnection({
    host: server.hostname,
    port: Number(server.port || 3306),
    user: decodeURIComponent(server.username || 'root'),
    password: decodeURIComponent(server.password),
  });
}

/** A fresh, empty database for one app: a temp SQLite file, or a new MariaDB schema. */
export async function createTestDatabase(): Promise<TestDatabase> {
  if (!TEST_DB_URL) {
    const dir = mkdtempSync(join(tmpdir(), 'url-shorter-e2e-'));
    return {
      env: { DB_FILE: join(dir, 'test.db') },
      drop: async () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  const name = `e2e_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const url = new URL(TEST_DB_URL);
  url.pathname = `/${name}`;
  if (TEST_DB_KIND === 'postgres') {
    const admin = await postgresAdmin();
    await admin.query(`CREATE DATABASE "${name}"`);
    return {
      env: { DB_URL: url.toString() },
      drop: async () => {
        await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
        await admin.end();
      },
    };
  }
  const conn = await mariadbAdmin();
  await conn.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  return {
    env: { DB_URL: url.toString() },
    drop: async () => {
      await conn.query(`DROP DATABASE IF EXISTS \`${name}\``);
      await conn.end();
    },
  };
}

/** The database server of TEST_DB_URL (host and port), for tests that put a proxy in front of it. */
export function testDatabaseServer(): { host: string; port: number } {
  const server = new URL(TEST_DB_URL as string);
  return {
    host: server.hostname,
    port: Number(server.port || (TEST_DB_KIND === 'postgres' ? 5432 : 3306)),
  };
}
