import { type MigrationInterface, type QueryRunner, Table, TableIndex } from 'typeorm';
import { portable } from './portable';

/** Own domains (CONTRACT "Own domains"): hosts unique across the instance. */
export class Domains1763830000000 implements MigrationInterface {
  name = 'Domains1763830000000';

  async up(q: QueryRunner): Promise<void> {
    const p = portable(q);
    await q.createTable(
      new Table({
        name: 'domains',
        columns: [
          { name: 'id', type: 'varchar', length: '36', isPrimary: true },
          { name: 'host', type: 'varchar', length: '253' },
          { name: 'owner_id', type: 'varchar', length: '36', isNullable: true },
          { name: 'verified', ...p.bool(0) },
          { name: 'enabled', ...p.bool(1) },
          { name: 'home_redirect', type: 'varchar', length: '2048', isNullable: true },
          { name: 'not_found_redirect', type: 'varchar', length: '2048', isNullable: true },
          { name: 'token', type: 'varchar', length: '64' },
          { name: 'checked_at', ...p.datetime(), isNullable: true },
          { name: 'failing_since', ...p.datetime(), isNullable: true },
          { name: 'fail_reason', type: 'varchar', length: '32', isNullable: true },
          { name: 'created_at', ...p.datetime() },
        ],
        indices: [
          new TableIndex({ name: 'UQ_domains_host', columnNames: ['host'], isUnique: true }),
          new TableIndex({ name: 'IDX_domains_owner', columnNames: ['owner_id'] }),
        ],
        foreignKeys: [
          {
            name: 'FK_domains_owner',
            columnNames: ['owner_id'],
            referencedTableName: 'users',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
          },
        ],
      }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('domains');
  }
}
