import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { DateUtils } from 'typeorm/util/DateUtils';
import { expect } from 'vitest';
import { loadConfig } from '../../src/config/config';
import { dataSourceOptions } from '../../src/database/data-source';
import { dialectSql, engineOf } from '../../src/database/dialect';
import { MIGRATIONS } from '../../src/database/migrations';
import type { TestDatabase } from './database';

/**
 * `db` with the schema of an older release: the migrations before the first whose name starts with
 * `before`. `sql` runs `?` SQL on it; `at` gives a time as its driver binds one (SQLite keeps
 * datetimes as text, as TypeORM writes them; the other drivers bind a Date); `addUser` adds a user.
 */
export async function oldSchema(db: TestDatabase, before: string) {
  const until = MIGRATIONS.findIndex((m) => m.name.startsWith(before));
  expect(until).toBeGreaterThan(0);
  const config = loadConfig({ APP_SECRET: 'x'.repeat(40), ...db.env });
  const old = new DataSource({
    ...dataSourceOptions(config),
    migrations: MIGRATIONS.slice(0, until),
  } as ConstructorParameters<typeof DataSource>[0]);
  await old.initialize();
  const engine = engineOf(old);
  const sql = (text: string, params: unknown[]) => old.query(dialectSql(engine, text), params);
  const at = (date: Date) =>
    engine === 'sqlite' ? DateUtils.mixedDateToUtcDatetimeString(date) : date;
  const addUser = async (name: string) => {
    const id = randomUUID();
    await sql(
      'INSERT INTO users (id, provider, provider_user_id, username, activated, roles, created_date) VALUES (?, ?, ?, ?, ?, ?, ?)',
      [id, 'dev', name, name, 1, 'ROLE_USER', at(new Date())],
    );
    return id;
  };
  return { old, sql, at, addUser };
}
