import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { DateUtils } from 'typeorm/util/DateUtils';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config';
import { dataSourceOptions } from '../../src/database/data-source';
import { dialectSql, engineOf } from '../../src/database/dialect';
import { MIGRATIONS } from '../../src/database/migrations';
import { createTestApp, type TestApp } from '../support/app';
import { createTestDatabase, type TestDatabase } from '../support/database';

/** The migrations of the release before own domains (1.7.1): the schema an upgrade starts from. */
const BEFORE_DOMAINS = MIGRATIONS.findIndex((m) => m.name.startsWith('Domains'));

/**
 * An instance of the previous release is upgraded: its data survives the new migrations (on
 * SQLite a rebuilt `shorts` table would cascade to the reports and statistics that refer to it).
 */
describe('upgrading a database of the previous release', () => {
  let db: TestDatabase;
  let t: TestApp | undefined;
  afterAll(async () => {
    await t?.close();
    await db?.drop();
  });

  it('keeps every short, report and statistic; shorts are on the main host afterwards', async () => {
    db = await createTestDatabase();
    const config = loadConfig({ APP_SECRET: 'x'.repeat(40), ...db.env });
    const old = new DataSource({
      ...dataSourceOptions(config),
      migrations: MIGRATIONS.slice(0, BEFORE_DOMAINS),
    } as ConstructorParameters<typeof DataSource>[0]);
    await old.initialize();
    const sql = (text: string, params: unknown[]) =>
      old.query(dialectSql(engineOf(old), text), params);
    const user = randomUUID();
    const short = randomUUID();
    // SQLite keeps datetimes as text (as TypeORM writes them); the other drivers bind a Date.
    const date = new Date();
    const now = engineOf(old) === 'sqlite' ? DateUtils.mixedDateToUtcDatetimeString(date) : date;
    await sql(
      'INSERT INTO users (id, provider, provider_user_id, username, activated, roles, created_date) VALUES (?, ?, ?, ?, ?, ?, ?)',
      [user, 'dev', 'alice', 'alice', 1, 'ROLE_USER', now],
    );
    await sql(
      'INSERT INTO shorts (id, code, name, url, uses, created_at, owner_id, dangerous) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      [short, 'kept', 'Behalten', 'https://example.com/kept', 3, now, user, 0],
    );
    await sql(
      'INSERT INTO reports (id, short_id, reporter_id, reason, description, state, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
      [randomUUID(), short, user, 'SPAM', 'old report', 'open', now],
    );
    await sql(
      'INSERT INTO stats_hourly (short_id, hour_no, visits, visitors, bots) VALUES (?, ?, ?, ?, ?)',
      [short, Math.floor(date.getTime() / 3_600_000), 3, 2, 1],
    );
    await old.destroy();

    t = await createTestApp({ ...db.env });
    const count = async (table: string) =>
      Number((await t!.query<Array<{ n: unknown }>>(`SELECT COUNT(*) AS n FROM ${table}`))[0].n);
    expect(await count('shorts')).toBe(1);
    expect(await count('reports')).toBe(1);
    expect(await count('stats_hourly')).toBe(1);
    const rows = await t.query<Array<Record<string, unknown>>>(
      'SELECT code, domain, uses FROM shorts WHERE id = ?',
      [short],
    );
    expect(rows.map((r) => [r.code, r.domain, Number(r.uses)])).toEqual([['kept', '', 3]]);
    expect((await t.fetch('/s/kept')).headers.get('location')).toBe('https://example.com/kept');
  });
});
