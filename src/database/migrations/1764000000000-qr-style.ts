import type { MigrationInterface, QueryRunner } from 'typeorm';
import { portable } from './portable';

/**
 * A short's default QR style (CONTRACT "Marketing links", QR styles): `shorts.qr_style`, the
 * compact `fg,bg,ec,margin` (e.g. `1d3557,f1faee,M,4`, shared/qr-style.ts); NULL: none.
 */
export class QrStyle1764000000000 implements MigrationInterface {
  name = 'QrStyle1764000000000';

  async up(q: QueryRunner): Promise<void> {
    // A plain ADD COLUMN (the schema builder would rebuild `shorts` on SQLite).
    const quote = portable(q).engine === 'mysql' ? '`' : '"';
    await q.query(
      `ALTER TABLE ${quote}shorts${quote} ADD COLUMN ${quote}qr_style${quote} varchar(24) NULL`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    const quote = portable(q).engine === 'mysql' ? '`' : '"';
    await q.query(`ALTER TABLE ${quote}shorts${quote} DROP COLUMN ${quote}qr_style${quote}`);
  }
}
