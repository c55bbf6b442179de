import type { MigrationInterface, QueryRunner } from 'typeorm';
import { portable } from './portable';

/**
 * MariaDB/MySQL: the index of a user's own shorts by time names the team too, (owner_id, team_id,
 * created_at) instead of (owner_id, created_at). The own space is `owner_id = ? AND team_id IS
 * NULL`; with the team in the index (and InnoDB's secondary indexes carrying the primary key), the
 * own list's walk of the space by tags tests each short without reading its row, and reads only
 * the page's rows (ShortRepository.listOwn; docs/performance.md: about half the pages a page of
 * the bench's tag lists touched). The new index replaces the old one: it serves every query of
 * the own space the old one did and the foreign key on owner_id. SQLite and PostgreSQL keep
 * theirs: their walks read a short's row cheaply (its heap or table page, in creation order) and
 * spend their time on the tag tests.
 */
export class OwnSpaceIndex1764040000000 implements MigrationInterface {
  name = 'OwnSpaceIndex1764040000000';

  async up(q: QueryRunner): Promise<void> {
    if (portable(q).engine !== 'mysql') return;
    // One statement: the foreign key on owner_id always has an index to use.
    await q.query(
      'ALTER TABLE `shorts` ADD INDEX `IDX_shorts_owner_team_created` (`owner_id`, `team_id`, `created_at`), DROP INDEX `IDX_shorts_owner_created`',
    );
  }

  async down(q: QueryRunner): Promise<void> {
    if (portable(q).engine !== 'mysql') return;
    await q.query(
      'ALTER TABLE `shorts` ADD INDEX `IDX_shorts_owner_created` (`owner_id`, `created_at`), DROP INDEX `IDX_shorts_owner_team_created`',
    );
  }
}
