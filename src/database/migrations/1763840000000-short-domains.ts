import { type MigrationInterface, type QueryRunner, TableIndex } from 'typeorm';
import { portable } from './portable';

/**
 * Shorts on own domains: `shorts.domain` is the host of the domain a short lives on, '' for this
 * service's own host (an empty string, not NULL, so the unique index holds for the main host too:
 * NULLs never collide). Codes become unique per domain.
 */
export class ShortDomains1763840000000 implements MigrationInterface {
  name = 'ShortDomains1763840000000';

  async up(q: QueryRunner): Promise<void> {
    // A plain ADD COLUMN: the schema builder would rebuild the table on SQLite (copy, drop, rename),
    // and dropping `shorts` would cascade to the reports and statistics that refer to it.
    const quote = portable(q).engine === 'mysql' ? '`' : '"';
    await q.query(
      `ALTER TABLE ${quote}shorts${quote} ADD COLUMN ${quote}domain${quote} varchar(253) NOT NULL DEFAULT ''`,
    );
    await q.createIndex(
      'shorts',
      new TableIndex({
        name: 'UQ_shorts_domain_code',
        columnNames: ['domain', 'code'],
        isUnique: true,
      }),
    );
    await q.dropIndex('shorts', 'UQ_shorts_code');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.createIndex(
      'shorts',
      new TableIndex({ name: 'UQ_shorts_code', columnNames: ['code'], isUnique: true }),
    );
    await q.dropIndex('shorts', 'UQ_shorts_domain_code');
    const quote = portable(q).engine === 'mysql' ? '`' : '"';
    await q.query(`ALTER TABLE ${quote}shorts${quote} DROP COLUMN ${quote}domain${quote}`);
  }
}
