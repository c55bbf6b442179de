import { type MigrationInterface, type QueryRunner, Table, TableIndex } from 'typeorm';
import { portable } from './portable';

/**
 * Webhooks (CONTRACT "Webhooks"): the webhooks of a user or a team, and their outbox
 * (`webhook_deliveries`, one row per event and webhook: what to send, its attempts and lease).
 */
export class Webhooks1763910000000 implements MigrationInterface {
  name = 'Webhooks1763910000000';

  async up(q: QueryRunner): Promise<void> {
    const p = portable(q);
    const text = p.engine === 'mysql' ? 'mediumtext' : 'text';
    await q.createTable(
      new Table({
        name: 'webhooks',
        columns: [
          { name: 'id', type: 'varchar', length: '36', isPrimary: true },
          /** Its creator; a team's webhook outlives him (null once he is deleted). */
          { name: 'owner_id', type: 'varchar', length: '36', isNullable: true },
          { name: 'team_id', type: 'varchar', length: '36', isNullable: true },
          { name: 'url', type: 'varchar', length: '2048' },
          /** Comma list of event types. */
          { name: 'events', type: 'varchar', length: '512' },
          /** The signing secret, encrypted (ApiKeyCipher, bound to the webhook's id). */
          { name: 'secret', type: 'varchar', length: '255' },
          { name: 'enabled', ...p.bool(1) },
          { name: 'disabled_reason', type: 'varchar', length: '255', isNullable: true },
          { name: 'failing_since', ...p.datetime(), isNullable: true },
          { name: 'created_at', ...p.datetime() },
        ],
        indices: [
          new TableIndex({ name: 'IDX_webhooks_owner', columnNames: ['owner_id'] }),
          new TableIndex({ name: 'IDX_webhooks_team', columnNames: ['team_id'] }),
        ],
        foreignKeys: [
          {
            name: 'FK_webhooks_owner',
            columnNames: ['owner_id'],
            referencedTableName: 'users',
            referencedColumnNames: ['id'],
            onDelete: 'SET NULL',
          },
          {
            name: 'FK_webhooks_team',
            columnNames: ['team_id'],
            referencedTableName: 'teams',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
          },
        ],
      }),
    );
    await q.createTable(
      new Table({
        name: 'webhook_deliveries',
        columns: [
          { name: 'id', type: 'varchar', length: '36', isPrimary: true },
          /** The event's id, sent as `webhook-id` (the same for every webhook of one event). */
          { name: 'event_id', type: 'varchar', length: '40' },
          { name: 'webhook_id', type: 'varchar', length: '36' },
          { name: 'type', type: 'varchar', length: '32' },
          /** The body sent, `{type, timestamp, data}` as JSON. */
          { name: 'payload', type: text },
          /** pending | delivered | failed */
          { name: 'status', type: 'varchar', length: '10' },
          { name: 'attempts', type: 'int', default: 0 },
          { name: 'next_attempt_at', ...p.datetime() },
          { name: 'last_status_code', type: 'int', isNullable: true },
          { name: 'last_error', type: 'varchar', length: '255', isNullable: true },
          { name: 'duration_ms', type: 'int', isNullable: true },
          { name: 'created_at', ...p.datetime() },
          { name: 'delivered_at', ...p.datetime(), isNullable: true },
          /** The instance delivering it now, and until when (a lease: one instance sends it). */
          { name: 'lease_holder', type: 'varchar', length: '36', isNullable: true },
          { name: 'lease_until', ...p.datetime(), isNullable: true },
        ],
        indices: [
          new TableIndex({
            name: 'IDX_webhook_deliveries_due',
            columnNames: ['status', 'next_attempt_at'],
          }),
          new TableIndex({
            name: 'IDX_webhook_deliveries_webhook',
            columnNames: ['webhook_id', 'created_at'],
          }),
          new TableIndex({ name: 'IDX_webhook_deliveries_created', columnNames: ['created_at'] }),
        ],
        foreignKeys: [
          {
            name: 'FK_webhook_deliveries_webhook',
            columnNames: ['webhook_id'],
            referencedTableName: 'webhooks',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
          },
        ],
      }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('webhook_deliveries');
    await q.dropTable('webhooks');
  }
}
