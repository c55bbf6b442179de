import { type MigrationInterface, type QueryRunner, Table, TableIndex } from 'typeorm';
import { portable } from './portable';

/**
 * Tags (CONTRACT "Tags and bulk edits"): `shorts.tags`, the short's tags as shown (the spelling
 * first written, comma-joined in the short's order; a tag holds no comma), and `short_tags`, one
 * row per short and tag for filtering and counting: `tag` is the tag's key (lower case, so tags
 * that differ only in case are one), `label` its spelling on that short, `space` the short's space (`u:{ownerId}` for a user's own
 * shorts, `t:{teamId}` for a team's), so a space's counts and filters read one index range.
 * Written in the same transaction as the short's `tags` (ShortTagsWriter).
 */
export class Tags1763920000000 implements MigrationInterface {
  name = 'Tags1763920000000';

  async up(q: QueryRunner): Promise<void> {
    const p = portable(q);
    const quote = p.engine === 'mysql' ? '`' : '"';
    await q.query(
      `ALTER TABLE ${quote}shorts${quote} ADD COLUMN ${quote}tags${quote} varchar(400) NULL`,
    );
    await q.createTable(
      new Table({
        name: 'short_tags',
        columns: [
          { name: 'short_id', type: 'varchar', length: '36', isPrimary: true },
          { name: 'tag', type: 'varchar', length: '32', isPrimary: true, ...p.caseSensitive },
          /** The tag as this short spells it (for the counts' answer). */
          { name: 'label', type: 'varchar', length: '32' },
          { name: 'space', type: 'varchar', length: '38', ...p.caseSensitive },
        ],
        indices: [
          new TableIndex({
            name: 'IDX_short_tags_space_tag',
            columnNames: ['space', 'tag', 'short_id'],
          }),
        ],
        foreignKeys: [
          {
            name: 'FK_short_tags_short',
            columnNames: ['short_id'],
            referencedTableName: 'shorts',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
          },
        ],
      }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    const p = portable(q);
    const quote = p.engine === 'mysql' ? '`' : '"';
    await q.dropTable('short_tags');
    await q.query(`ALTER TABLE ${quote}shorts${quote} DROP COLUMN ${quote}tags${quote}`);
  }
}
