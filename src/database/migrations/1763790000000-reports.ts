import { type MigrationInterface, type QueryRunner, Table, TableIndex } from 'typeorm';
import { portable } from './portable';

/** Reports of shorts: one per short and reporter, kept as a moderation queue. */
export class Reports1763790000000 implements MigrationInterface {
  name = 'Reports1763790000000';

  async up(q: QueryRunner): Promise<void> {
    await q.createTable(
      new Table({
        name: 'reports',
        columns: [
          { name: 'id', type: 'varchar', length: '36', isPrimary: true },
          { name: 'short_id', type: 'varchar', length: '36' },
          { name: 'reporter_id', type: 'varchar', length: '36' },
          { name: 'reason', type: 'varchar', length: '32' },
          { name: 'description', type: 'varchar', length: '2000' },
          { name: 'state', type: 'varchar', length: '16', default: "'open'" },
          { name: 'created_at', ...portable(q).datetime() },
        ],
        indices: [
          new TableIndex({
            name: 'UQ_reports_short_reporter',
            columnNames: ['short_id', 'reporter_id'],
            isUnique: true,
          }),
          new TableIndex({
            name: 'IDX_reports_state_created',
            columnNames: ['state', 'created_at'],
          }),
          new TableIndex({ name: 'IDX_reports_reporter', columnNames: ['reporter_id'] }),
        ],
        foreignKeys: [
          {
            name: 'FK_reports_short',
            columnNames: ['short_id'],
            referencedTableName: 'shorts',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
          },
          {
            name: 'FK_reports_reporter',
            columnNames: ['reporter_id'],
            referencedTableName: 'users',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
          },
        ],
      }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('reports');
  }
}
