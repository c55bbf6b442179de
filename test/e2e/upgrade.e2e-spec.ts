import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { dbTimeMs } from '../../src/database/columns';
import { createTestApp, type TestApp } from '../support/app';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { oldSchema } from '../support/old-schema';

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
    // The release before own domains (1.7.1): the schema an upgrade starts from.
    const { old, sql, at, addUser } = await oldSchema(db, 'Domains');
    const user = await addUser('alice');
    const short = randomUUID();
    const date = new Date();
    const now = at(date);
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

describe('upgrading a database whose tag rows have no time', () => {
  let db: TestDatabase;
  let t: TestApp | undefined;
  afterAll(async () => {
    await t?.close();
    await db?.drop();
  });

  it("gives each tag row its short's creation time, exactly", async () => {
    db = await createTestDatabase();
    // Before the tag rows carried their short's time.
    const { old, sql, at, addUser } = await oldSchema(db, 'ShortTagsCreated');
    const user = await addUser('tina');
    const times = [Date.UTC(2025, 4, 1, 12, 0, 0, 123), Date.UTC(2026, 0, 2, 3, 4, 5, 678)];
    const ids = times.map(() => randomUUID());
    for (const [i, ms] of times.entries()) {
      await sql(
        'INSERT INTO shorts (id, code, url, uses, created_at, owner_id, dangerous, tags) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
        [ids[i], `old-${i}`, 'https://example.com/', 0, at(new Date(ms)), user, 0, 'Alt'],
      );
      await sql('INSERT INTO short_tags (short_id, tag, label, space) VALUES (?, ?, ?, ?)', [
        ids[i],
        'alt',
        'Alt',
        `u:${user}`,
      ]);
    }
    await old.destroy();

    t = await createTestApp({ ...db.env });
    const rows = await t.query<Array<Record<string, unknown>>>(
      'SELECT r.short_id, r.created_at AS tagged, s.created_at AS created FROM short_tags r JOIN shorts s ON s.id = r.short_id ORDER BY r.created_at',
    );
    expect(rows.map((r) => r.short_id)).toEqual(ids);
    for (const r of rows) expect(r.tagged).toEqual(r.created);
    expect(rows.map((r) => dbTimeMs(r.tagged))).toEqual(times);
  });
});
