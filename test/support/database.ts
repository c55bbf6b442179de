import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createConnection } from 'mysql2/promise';

/** Which database the e2e run uses: TEST_DB_URL=mysql://root@127.0.0.1:3306 selects MariaDB. */
export const TEST_DB_URL = process.env.TEST_DB_URL;
export const TEST_DB_KIND: 'sqlite' | 'mariadb' = TEST_DB_URL ? 'mariadb' : 'sqlite';

export interface TestDatabase {
  env: Record<string, string>;
  drop(): Promise<void>;
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
  const server = new URL(TEST_DB_URL);
  const name = `e2e_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const conn = await createConnection({
    host: server.hostname,
    port: Number(server.port || 3306),
    user: decodeURIComponent(server.username || 'root'),
    password: decodeURIComponent(server.password),
  });
  await conn.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  const url = new URL(TEST_DB_URL);
  url.pathname = `/${name}`;
  return {
    env: { DB_URL: url.toString() },
    drop: async () => {
      await conn.query(`DROP DATABASE IF EXISTS \`${name}\``);
      await conn.end();
    },
  };
}
