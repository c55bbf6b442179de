import type { MigrationInterface, QueryRunner } from 'typeorm';
import { portable } from './portable';

/**
 * Redirect rules and the expiry fallback of a short: `shorts.rules` (JSON text, NULL: none) and
 * `shorts.expired_url` (NULL: the not-found page).
 */
export class ShortRules1763850000000 implements MigrationInterface {
  name = 'ShortRules1763850000000';

  async up(q: QueryRunner): Promise<void> {
    // Plain ADD COLUMNs: the schema builder would rebuild the table on SQLite (copy, drop, rename),
    // and dropping `shorts` would cascade to the reports and statistics that refer to it.
    const quote = portable(q).engine === 'mysql' ? '`' : '"';
    const shorts = `${quote}shorts${quote}`;
    await q.query(
      `ALTER TABLE ${shorts} ADD COLUMN ${quote}expired_url${quote} varchar(2048) NULL`,
    );
    await q.query(`ALTER TABLE ${shorts} ADD COLUMN ${quote}rules${quote} text NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    const quote = portable(q).engine === 'mysql' ? '`' : '"';
    const shorts = `${quote}shorts${quote}`;
    await q.query(`ALTER TABLE ${shorts} DROP COLUMN ${quote}rules${quote}`);
    await q.query(`ALTER TABLE ${shorts} DROP COLUMN ${quote}expired_url${quote}`);
  }
}
