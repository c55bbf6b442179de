import { type MigrationInterface, type QueryRunner, Table, TableIndex } from 'typeorm';
import { portable } from './portable';

/**
 * Ids of the buffered batches already written (use counts, later statistics): a batch is written
 * together with its id in one transaction, so a batch whose commit answer was lost is recognised
 * on its retry and never counted twice. Rows are removed by the cleanup job after a week.
 */
export class AppliedBatches1763800000000 implements MigrationInterface {
  name = 'AppliedBatches1763800000000';

  async up(q: QueryRunner): Promise<void> {
    await q.createTable(
      new Table({
        name: 'applied_batches',
        columns: [
          { name: 'id', type: 'varchar', length: '36', isPrimary: true },
          { name: 'applied_at', ...portable(q).datetime() },
        ],
        indices: [
          new TableIndex({ name: 'IDX_applied_batches_applied_at', columnNames: ['applied_at'] }),
        ],
      }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('applied_batches');
  }
}
