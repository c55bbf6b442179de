import { type MigrationInterface, type QueryRunner, Table, TableIndex } from 'typeorm';
import { portable } from './portable';

/** Server-side sessions and API keys (portable schema builder: SQLite and MySQL/MariaDB). */
export class SessionsApiKeys1763780000000 implements MigrationInterface {
  name = 'SessionsApiKeys1763780000000';

  async up(q: QueryRunner): Promise<void> {
    const p = portable(q);
    const bin = p.engine === 'mysql' ? { charset: 'ascii', collation: 'ascii_bin' } : {};
    const datetime = p.datetime();

    await q.createTable(
      new Table({
        name: 'sessions',
        columns: [
          { name: 'sid', type: 'varchar', length: '128', isPrimary: true, ...bin },
          { name: 'data', type: 'text' },
          { name: 'expires_at', ...datetime },
        ],
        indices: [new TableIndex({ name: 'IDX_sessions_expires_at', columnNames: ['expires_at'] })],
      }),
    );

    await q.createTable(
      new Table({
        name: 'api_keys',
        columns: [
          { name: 'id', type: 'varchar', length: '36', isPrimary: true },
          { name: 'user_id', type: 'varchar', length: '36' },
          /** SHA-256 of the key, hex: the lookup. */
          { name: 'key_hash', type: 'varchar', length: '64', ...bin },
          /** AES-256-GCM copy (iv.tag.ciphertext, base64url) so the owner can reveal it. */
          { name: 'key_encrypted', type: 'varchar', length: '255' },
          { name: 'created_at', ...datetime },
        ],
        indices: [
          new TableIndex({ name: 'UQ_api_keys_user', columnNames: ['user_id'], isUnique: true }),
          new TableIndex({ name: 'UQ_api_keys_hash', columnNames: ['key_hash'], isUnique: true }),
        ],
        foreignKeys: [
          {
            name: 'FK_api_keys_user',
            columnNames: ['user_id'],
            referencedTableName: 'users',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
          },
        ],
      }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('api_keys');
    await q.dropTable('sessions');
  }
}
