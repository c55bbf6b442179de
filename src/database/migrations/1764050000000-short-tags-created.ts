import { type MigrationInterface, type QueryRunner, TableIndex } from 'typeorm';
import { portable } from './portable';

/**
 * `short_tags.created_at`, the short's own creation time (copied from its row by every INSERT of a
 * tag row: short-tags.ts), and the index (space, tag, created_at, short_id): the own list's page
 * of the newest shorts with a tag (its default order) reads that index range alone, where the walk
 * of the space's index by time tested each walked short's tags (on MariaDB the database server's
 * time for the bench's tag lists; docs/performance.md, "Tag lists by the tag's own index").
 *
 * Existing rows take their short's time. The column is NOT NULL: MariaDB and PostgreSQL get it
 * without a default after the copy (a tag row written without it fails); SQLite cannot add a NOT
 * NULL column without a default, so it keeps the epoch as one (the app never writes a row without
 * the time).
 */
export class ShortTagsCreated1764050000000 implements MigrationInterface {
  name = 'ShortTagsCreated1764050000000';

  async up(q: QueryRunner): Promise<void> {
    const p = portable(q);
    if (p.engine === 'mysql') {
      await q.query('ALTER TABLE `short_tags` ADD COLUMN `created_at` datetime(3) NULL');
      await q.query(
        'UPDATE `short_tags` r JOIN `shorts` s ON s.`id` = r.`short_id` SET r.`created_at` = s.`created_at`',
      );
      await q.query('ALTER TABLE `short_tags` MODIFY `created_at` datetime(3) NOT NULL');
    } else if (p.engine === 'postgres') {
      await q.query('ALTER TABLE "short_tags" ADD COLUMN "created_at" timestamptz(3) NULL');
      await q.query(
        'UPDATE "short_tags" r SET "created_at" = s."created_at" FROM "shorts" s WHERE s."id" = r."short_id"',
      );
      await q.query('ALTER TABLE "short_tags" ALTER COLUMN "created_at" SET NOT NULL');
    } else {
      await q.query(
        `ALTER TABLE "short_tags" ADD COLUMN "created_at" datetime(3) NOT NULL DEFAULT '1970-01-01 00:00:00.000'`,
      );
      await q.query(
        'UPDATE "short_tags" SET "created_at" = (SELECT s."created_at" FROM "shorts" s WHERE s."id" = "short_tags"."short_id")',
      );
    }
    await q.createIndex(
      'short_tags',
      new TableIndex({
        name: 'IDX_short_tags_space_tag_created',
        columnNames: ['space', 'tag', 'created_at', 'short_id'],
      }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropIndex('short_tags', 'IDX_short_tags_space_tag_created');
    await q.dropColumn('short_tags', 'created_at');
  }
}
