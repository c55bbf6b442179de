import { type MigrationInterface, type QueryRunner, TableIndex } from 'typeorm';

/**
 * The link-health sweep's index: (health_checked_at, owner_id) instead of health_checked_at alone.
 * The sweep reads logged-in shorts never checked (`health_checked_at IS NULL AND owner_id IS NOT
 * NULL`) or checked before a cutoff. With health_checked_at alone, "never checked" matched every
 * anonymous short too: with a million anonymous shorts, SQLite read all of them (and sorted what was
 * left) in one synchronous statement that held the event loop for 5 s. With the owner in the index
 * the anonymous ones are skipped in the index itself.
 */
export class HealthDueIndex1763880000000 implements MigrationInterface {
  name = 'HealthDueIndex1763880000000';

  async up(q: QueryRunner): Promise<void> {
    await q.createIndex(
      'shorts',
      new TableIndex({
        name: 'IDX_shorts_health_due',
        columnNames: ['health_checked_at', 'owner_id'],
      }),
    );
    await q.dropIndex('shorts', 'IDX_shorts_health_checked_at');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.createIndex(
      'shorts',
      new TableIndex({ name: 'IDX_shorts_health_checked_at', columnNames: ['health_checked_at'] }),
    );
    await q.dropIndex('shorts', 'IDX_shorts_health_due');
  }
}
