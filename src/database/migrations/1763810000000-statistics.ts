import { type MigrationInterface, type QueryRunner, Table, TableIndex } from 'typeorm';
import { portable } from './portable';

const shortFk = (table: string) => ({
  name: `FK_${table}_short`,
  columnNames: ['short_id'],
  referencedTableName: 'shorts',
  referencedColumnNames: ['id'],
  onDelete: 'CASCADE',
});

/**
 * Visit statistics (CONTRACT "Statistics"), aggregates only: hourly buckets per short, daily counts
 * per dimension value, the day's visitor hashes and the day's salt. Hours and days are whole
 * numbers since the epoch (UTC), so every engine stores and compares them alike. Deleting a short
 * deletes its statistics (ON DELETE CASCADE); salts and visitor hashes go after 48 h.
 */
export class Statistics1763810000000 implements MigrationInterface {
  name = 'Statistics1763810000000';

  async up(q: QueryRunner): Promise<void> {
    const { caseSensitive } = portable(q);
    await q.createTable(
      new Table({
        name: 'stats_hourly',
        columns: [
          { name: 'short_id', type: 'varchar', length: '36', isPrimary: true },
          { name: 'hour_no', type: 'integer', isPrimary: true },
          { name: 'visits', type: 'integer', default: 0 },
          { name: 'visitors', type: 'integer', default: 0 },
          { name: 'bots', type: 'integer', default: 0 },
        ],
        indices: [new TableIndex({ name: 'IDX_stats_hourly_hour', columnNames: ['hour_no'] })],
        foreignKeys: [shortFk('stats_hourly')],
      }),
    );
    await q.createTable(
      new Table({
        name: 'stats_values',
        columns: [
          { name: 'short_id', type: 'varchar', length: '36', isPrimary: true },
          { name: 'day_no', type: 'integer', isPrimary: true },
          { name: 'dim', type: 'varchar', length: '16', isPrimary: true },
          { name: 'name', type: 'varchar', length: '255', isPrimary: true, ...caseSensitive },
          { name: 'hits', type: 'integer', default: 0 },
        ],
        indices: [new TableIndex({ name: 'IDX_stats_values_day', columnNames: ['day_no'] })],
        foreignKeys: [shortFk('stats_values')],
      }),
    );
    await q.createTable(
      new Table({
        name: 'stats_visitors',
        columns: [
          { name: 'short_id', type: 'varchar', length: '36', isPrimary: true },
          { name: 'day_no', type: 'integer', isPrimary: true },
          { name: 'hash', type: 'varchar', length: '43', isPrimary: true, ...caseSensitive },
        ],
        indices: [new TableIndex({ name: 'IDX_stats_visitors_day', columnNames: ['day_no'] })],
        foreignKeys: [shortFk('stats_visitors')],
      }),
    );
    await q.createTable(
      new Table({
        name: 'stats_salts',
        columns: [
          { name: 'day_no', type: 'integer', isPrimary: true },
          { name: 'salt', type: 'varchar', length: '64' },
        ],
      }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    for (const t of ['stats_salts', 'stats_visitors', 'stats_values', 'stats_hourly']) {
      await q.dropTable(t);
    }
  }
}
