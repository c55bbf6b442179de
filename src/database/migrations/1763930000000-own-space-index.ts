import { type MigrationInterface, type QueryRunner, TableIndex } from 'typeorm';

/**
 * The own list's index: (owner_id, team_id, created_at) instead of (owner_id, created_at). A user's
 * own space is `owner_id = ? AND team_id IS NULL` (a team's shorts keep their creator as owner);
 * with the team in the index, the own list's count reads the index alone instead of every row of
 * the user's shorts (100,000 shorts on SQLite: 40 against 10 ms under load), and its walk in the
 * order of creation skips team shorts in the index. A query by owner alone still reads its prefix.
 * The new index is made before the old one goes: MariaDB keeps an index that starts with owner_id
 * for the foreign key FK_shorts_owner.
 */
export class OwnSpaceIndex1763930000000 implements MigrationInterface {
  name = 'OwnSpaceIndex1763930000000';

  async up(q: QueryRunner): Promise<void> {
    await q.createIndex(
      'shorts',
      new TableIndex({
        name: 'IDX_shorts_owner_space',
        columnNames: ['owner_id', 'team_id', 'created_at'],
      }),
    );
    await q.dropIndex('shorts', 'IDX_shorts_owner_created');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.createIndex(
      'shorts',
      new TableIndex({ name: 'IDX_shorts_owner_created', columnNames: ['owner_id', 'created_at'] }),
    );
    await q.dropIndex('shorts', 'IDX_shorts_owner_space');
  }
}
