import type { MigrationInterface, QueryRunner } from 'typeorm';
import { portable } from './portable';

/**
 * The social preview of a short: `shorts.preview` (JSON text of its title, description and image;
 * NULL: none). One text column keeps a short without a preview at one NULL in the follow row.
 */
export class ShortPreview1764020000000 implements MigrationInterface {
  name = 'ShortPreview1764020000000';

  async up(q: QueryRunner): Promise<void> {
    // A plain ADD COLUMN (see 1763850000000-short-rules.ts: no table rebuild on SQLite).
    const quote = portable(q).engine === 'mysql' ? '`' : '"';
    await q.query(
      `ALTER TABLE ${quote}shorts${quote} ADD COLUMN ${quote}preview${quote} text NULL`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    const quote = portable(q).engine === 'mysql' ? '`' : '"';
    await q.query(`ALTER TABLE ${quote}shorts${quote} DROP COLUMN ${quote}preview${quote}`);
  }
}
