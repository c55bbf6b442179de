import { type MigrationInterface, type QueryRunner, Table, TableIndex } from 'typeorm';
import { portable } from './portable';

/** Days per value span: fixed with the data it sums (src/statistics/rollups.ts VALUE_SPAN_DAYS). */
const VALUE_SPAN_DAYS = 16;

const shortFk = (table: string) => ({
  name: `FK_${table}_short`,
  columnNames: ['short_id'],
  referencedTableName: 'shorts',
  referencedColumnNames: ['id'],
  onDelete: 'CASCADE',
});

/**
 * Rollups of the statistics, written by the same batches as the rows they sum (so they are exact):
 * `stats_daily` sums `stats_hourly` per UTC day, `stats_value_spans` sums `stats_values` per span
 * of VALUE_SPAN_DAYS days. A year then reads about 365 daily rows and 23 spans instead of 8,760
 * hours and 366 days of values. Filled from the existing rows here.
 */
export class StatisticsRollups1763870000000 implements MigrationInterface {
  name = 'StatisticsRollups1763870000000';

  async up(q: QueryRunner): Promise<void> {
    const { caseSensitive, engine } = portable(q);
    await q.createTable(
      new Table({
        name: 'stats_daily',
        columns: [
          { name: 'short_id', type: 'varchar', length: '36', isPrimary: true },
          { name: 'day_no', type: 'integer', isPrimary: true },
          { name: 'visits', type: 'integer', default: 0 },
          { name: 'visitors', type: 'integer', default: 0 },
          { name: 'bots', type: 'integer', default: 0 },
        ],
        indices: [new TableIndex({ name: 'IDX_stats_daily_day', columnNames: ['day_no'] })],
        foreignKeys: [shortFk('stats_daily')],
      }),
    );
    await q.createTable(
      new Table({
        name: 'stats_value_spans',
        columns: [
          { name: 'short_id', type: 'varchar', length: '36', isPrimary: true },
          { name: 'span_no', type: 'integer', isPrimary: true },
          { name: 'dim', type: 'varchar', length: '16', isPrimary: true },
          { name: 'name', type: 'varchar', length: '255', isPrimary: true, ...caseSensitive },
          { name: 'hits', type: 'integer', default: 0 },
        ],
        indices: [new TableIndex({ name: 'IDX_stats_value_spans_span', columnNames: ['span_no'] })],
        foreignKeys: [shortFk('stats_value_spans')],
      }),
    );
    // Whole numbers since the epoch are never negative: integer division is floor division.
    const div = engine === 'mysql' ? 'DIV' : '/';
    await q.query(
      `INSERT INTO stats_daily (short_id, day_no, visits, visitors, bots) SELECT short_id, hour_no ${div} 24, SUM(visits), SUM(visitors), SUM(bots) FROM stats_hourly GROUP BY short_id, hour_no ${div} 24`,
    );
    await q.query(
      `INSERT INTO stats_value_spans (short_id, span_no, dim, name, hits) SELECT short_id, day_no ${div} ${VALUE_SPAN_DAYS}, dim, name, SUM(hits) FROM stats_values GROUP BY short_id, day_no ${div} ${VALUE_SPAN_DAYS}, dim, name`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('stats_value_spans');
    await q.dropTable('stats_daily');
  }
}
