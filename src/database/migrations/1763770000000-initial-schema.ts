import { type MigrationInterface, type QueryRunner, Table, TableIndex } from 'typeorm';
import { portable } from './portable';

/**
 * Initial schema, written with the portable schema builder so the same migration
 * runs on SQLite, MySQL/MariaDB and PostgreSQL (see portable.ts). Codes compare case-sensitively
 * everywhere (SQLite's default BINARY collation; utf8mb4_bin on MySQL; PostgreSQL's default).
 */
export class InitialSchema1763770000000 implements MigrationInterface {
  name = 'InitialSchema1763770000000';

  async up(q: QueryRunner): Promise<void> {
    const p = portable(q);
    const bin = p.caseSensitive;
    const datetime = p.datetime();
    const bool = p.bool;

    await q.createTable(
      new Table({
        name: 'users',
        columns: [
          { name: 'id', type: 'varchar', length: '36', isPrimary: true },
          { name: 'username', type: 'varchar', length: '100' },
          { name: 'email', type: 'varchar', length: '255', isNullable: true },
          { name: 'image_url', type: 'varchar', length: '1024', isNullable: true },
          { name: 'activated', ...bool(1) },
          { name: 'provider', type: 'varchar', length: '32' },
          { name: 'provider_user_id', type: 'varchar', length: '255' },
          { name: 'roles', type: 'varchar', length: '255', default: "'ROLE_USER'" },
          { name: 'created_date', ...datetime },
        ],
        indices: [
          new TableIndex({
            name: 'UQ_users_provider_user',
            columnNames: ['provider', 'provider_user_id'],
            isUnique: true,
          }),
        ],
      }),
    );

    await q.createTable(
      new Table({
        name: 'shorts',
        columns: [
          { name: 'id', type: 'varchar', length: '36', isPrimary: true },
          { name: 'code', type: 'varchar', length: '64', ...bin },
          { name: 'name', type: 'varchar', length: '100', isNullable: true },
          { name: 'url', type: 'varchar', length: '2048' },
          { name: 'password_hash', type: 'varchar', length: '255', isNullable: true },
          { name: 'max_uses', type: 'int', isNullable: true },
          { name: 'uses', type: 'int', default: 0 },
          { name: 'created_at', ...datetime },
          { name: 'expire_at', ...datetime, isNullable: true },
          { name: 'owner_id', type: 'varchar', length: '36', isNullable: true },
          { name: 'dangerous', ...bool(0) },
          { name: 'danger_reason', type: 'varchar', length: '32', isNullable: true },
        ],
        indices: [
          new TableIndex({ name: 'UQ_shorts_code', columnNames: ['code'], isUnique: true }),
          new TableIndex({
            name: 'IDX_shorts_owner_created',
            columnNames: ['owner_id', 'created_at'],
          }),
          new TableIndex({ name: 'IDX_shorts_expire_at', columnNames: ['expire_at'] }),
        ],
        foreignKeys: [
          {
            name: 'FK_shorts_owner',
            columnNames: ['owner_id'],
            referencedTableName: 'users',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
          },
        ],
      }),
    );

    await q.createTable(
      new Table({
        name: 'blacklist',
        columns: [
          { name: 'id', type: 'varchar', length: '36', isPrimary: true },
          { name: 'kind', type: 'varchar', length: '8' },
          { name: 'value', type: 'varchar', length: '512', ...bin },
          { name: 'reason', type: 'varchar', length: '255', isNullable: true },
          { name: 'created_at', ...datetime },
        ],
        indices: [
          new TableIndex({
            name: 'UQ_blacklist_kind_value',
            columnNames: ['kind', 'value'],
            isUnique: true,
          }),
        ],
      }),
    );

    /** Leases for scheduled jobs: one instance runs a job when several share a database. */
    await q.createTable(
      new Table({
        name: 'job_locks',
        columns: [
          { name: 'name', type: 'varchar', length: '64', isPrimary: true },
          { name: 'holder', type: 'varchar', length: '64' },
          { name: 'locked_until', ...datetime },
        ],
      }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('job_locks');
    await q.dropTable('blacklist');
    await q.dropTable('shorts');
    await q.dropTable('users');
  }
}
