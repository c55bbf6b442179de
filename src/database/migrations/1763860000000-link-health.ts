import { type MigrationInterface, type QueryRunner, TableIndex } from 'typeorm';
import { portable } from './portable';

/**
 * Link health of logged-in shorts (CONTRACT "Redirect rules, expiry fallback and link health"): the
 * outcome of the last check of a short's target, the failed checks in a row, since when it fails.
 * All null (and 0 failures) until the first check.
 */
export class LinkHealth1763860000000 implements MigrationInterface {
  name = 'LinkHealth1763860000000';

  async up(q: QueryRunner): Promise<void> {
    // Plain ADD COLUMNs: the schema builder would rebuild the table on SQLite (copy, drop, rename),
    // and dropping `shorts` would cascade to the reports and statistics that refer to it.
    const { engine } = portable(q);
    const quote = engine === 'mysql' ? '`' : '"';
    const time =
      engine === 'postgres' ? 'timestamptz(3)' : engine === 'mysql' ? 'datetime(3)' : 'datetime';
    const columns = [
      `health_state varchar(8) NULL`,
      `health_status int NULL`,
      `health_failures int NOT NULL DEFAULT 0`,
      `health_checked_at ${time} NULL`,
      `health_failing_since ${time} NULL`,
    ];
    for (const column of columns) {
      const [name, ...type] = column.split(' ');
      await q.query(
        `ALTER TABLE ${quote}shorts${quote} ADD COLUMN ${quote}${name}${quote} ${type.join(' ')}`,
      );
    }
    // The sweep reads the shorts due for a check by the time of their last one.
    await q.createIndex(
      'shorts',
      new TableIndex({ name: 'IDX_shorts_health_checked_at', columnNames: ['health_checked_at'] }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropIndex('shorts', 'IDX_shorts_health_checked_at');
    const quote = portable(q).engine === 'mysql' ? '`' : '"';
    for (const name of [
      'health_failing_since',
      'health_checked_at',
      'health_failures',
      'health_status',
      'health_state',
    ]) {
      await q.query(`ALTER TABLE ${quote}shorts${quote} DROP COLUMN ${quote}${name}${quote}`);
    }
  }
}
