import { type MigrationInterface, type QueryRunner, Table, TableIndex } from 'typeorm';
import { portable } from './portable';

/**
 * Teams and scoped API keys (CONTRACT "Teams", "API keys (several, named, scoped)"): teams, their
 * members and invites; `team_id` on shorts, domains and API keys (null: the owner's own space);
 * several named keys per user with scopes, an optional team, expiry and last use.
 * `team_id` on shorts and domains carries no foreign key (SQLite would rebuild the table): a team
 * is deleted only while no short or domain belongs to it.
 */
export class Teams1763900000000 implements MigrationInterface {
  name = 'Teams1763900000000';

  async up(q: QueryRunner): Promise<void> {
    const p = portable(q);
    const quote = p.engine === 'mysql' ? '`' : '"';
    const addColumn = (table: string, column: string, type: string) =>
      q.query(`ALTER TABLE ${quote}${table}${quote} ADD COLUMN ${quote}${column}${quote} ${type}`);
    const datetime = p.engine === 'postgres' ? 'timestamptz(3)' : 'datetime(3)';

    await q.createTable(
      new Table({
        name: 'teams',
        columns: [
          { name: 'id', type: 'varchar', length: '36', isPrimary: true },
          { name: 'name', type: 'varchar', length: '64' },
          { name: 'created_at', ...p.datetime() },
        ],
      }),
    );
    await q.createTable(
      new Table({
        name: 'team_members',
        columns: [
          { name: 'team_id', type: 'varchar', length: '36', isPrimary: true },
          { name: 'user_id', type: 'varchar', length: '36', isPrimary: true },
          /** owner | editor | viewer */
          { name: 'role', type: 'varchar', length: '8' },
          { name: 'joined_at', ...p.datetime() },
        ],
        indices: [new TableIndex({ name: 'IDX_team_members_user', columnNames: ['user_id'] })],
        foreignKeys: [
          {
            name: 'FK_team_members_team',
            columnNames: ['team_id'],
            referencedTableName: 'teams',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
          },
          {
            name: 'FK_team_members_user',
            columnNames: ['user_id'],
            referencedTableName: 'users',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
          },
        ],
      }),
    );
    await q.createTable(
      new Table({
        name: 'team_invites',
        columns: [
          { name: 'id', type: 'varchar', length: '36', isPrimary: true },
          { name: 'team_id', type: 'varchar', length: '36' },
          /** SHA-256 of the invite token, hex (the token itself is never stored). */
          { name: 'token_hash', type: 'varchar', length: '64', ...p.caseSensitive },
          { name: 'role', type: 'varchar', length: '8' },
          { name: 'created_by', type: 'varchar', length: '36', isNullable: true },
          { name: 'created_at', ...p.datetime() },
          { name: 'expires_at', ...p.datetime() },
          { name: 'used_at', ...p.datetime(), isNullable: true },
        ],
        indices: [
          new TableIndex({
            name: 'UQ_team_invites_token',
            columnNames: ['token_hash'],
            isUnique: true,
          }),
          new TableIndex({ name: 'IDX_team_invites_team', columnNames: ['team_id'] }),
        ],
        foreignKeys: [
          {
            name: 'FK_team_invites_team',
            columnNames: ['team_id'],
            referencedTableName: 'teams',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
          },
        ],
      }),
    );

    await addColumn('shorts', 'team_id', 'varchar(36) NULL');
    await q.createIndex(
      'shorts',
      new TableIndex({ name: 'IDX_shorts_team', columnNames: ['team_id', 'created_at'] }),
    );
    await addColumn('domains', 'team_id', 'varchar(36) NULL');
    await q.createIndex(
      'domains',
      new TableIndex({ name: 'IDX_domains_team', columnNames: ['team_id'] }),
    );

    // Several keys per user: the spec's single key becomes the one named ShareX.
    await addColumn('api_keys', 'name', "varchar(64) NOT NULL DEFAULT 'ShareX'");
    await addColumn('api_keys', 'prefix', "varchar(16) NOT NULL DEFAULT ''");
    await addColumn(
      'api_keys',
      'scopes',
      "varchar(255) NOT NULL DEFAULT 'shorts:read,shorts:write'",
    );
    await addColumn('api_keys', 'team_id', 'varchar(36) NULL');
    await addColumn('api_keys', 'expires_at', `${datetime} NULL`);
    await addColumn('api_keys', 'last_used_at', `${datetime} NULL`);
    await q.createIndex(
      'api_keys',
      new TableIndex({ name: 'IDX_api_keys_user', columnNames: ['user_id'] }),
    );
    await q.createIndex(
      'api_keys',
      new TableIndex({
        name: 'UQ_api_keys_user_name',
        columnNames: ['user_id', 'name'],
        isUnique: true,
      }),
    );
    await q.createIndex(
      'api_keys',
      new TableIndex({ name: 'IDX_api_keys_team', columnNames: ['team_id'] }),
    );
    await q.dropIndex('api_keys', 'UQ_api_keys_user');
  }

  async down(q: QueryRunner): Promise<void> {
    const quote = portable(q).engine === 'mysql' ? '`' : '"';
    const dropColumn = (table: string, column: string) =>
      q.query(`ALTER TABLE ${quote}${table}${quote} DROP COLUMN ${quote}${column}${quote}`);
    // Back to one key per user: keep the ShareX key, drop the others.
    await q.query("DELETE FROM api_keys WHERE name <> 'ShareX'");
    await q.createIndex(
      'api_keys',
      new TableIndex({ name: 'UQ_api_keys_user', columnNames: ['user_id'], isUnique: true }),
    );
    await q.dropIndex('api_keys', 'IDX_api_keys_team');
    await q.dropIndex('api_keys', 'UQ_api_keys_user_name');
    await q.dropIndex('api_keys', 'IDX_api_keys_user');
    for (const c of ['last_used_at', 'expires_at', 'team_id', 'scopes', 'prefix', 'name'])
      await dropColumn('api_keys', c);
    await q.dropIndex('domains', 'IDX_domains_team');
    await dropColumn('domains', 'team_id');
    await q.dropIndex('shorts', 'IDX_shorts_team');
    await dropColumn('shorts', 'team_id');
    await q.dropTable('team_invites');
    await q.dropTable('team_members');
    await q.dropTable('teams');
  }
}
