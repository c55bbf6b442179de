import { type MigrationInterface, type QueryRunner, Table, TableIndex } from 'typeorm';
import { portable } from './portable';

/**
 * UTM templates (CONTRACT "Marketing links"): named sets of the five UTM values of a user (own
 * space: `owner_id`, `team_id` null) or of a team (`team_id`, `owner_id` null). Both foreign keys
 * cascade, so deleting a user or a team takes its templates with it.
 */
export class UtmTemplates1764010000000 implements MigrationInterface {
  name = 'UtmTemplates1764010000000';

  async up(q: QueryRunner): Promise<void> {
    const p = portable(q);
    const value = (name: string) => ({
      name,
      type: 'varchar',
      length: '200',
      isNullable: true,
    });
    await q.createTable(
      new Table({
        name: 'utm_templates',
        columns: [
          { name: 'id', type: 'varchar', length: '36', isPrimary: true },
          { name: 'owner_id', type: 'varchar', length: '36', isNullable: true },
          { name: 'team_id', type: 'varchar', length: '36', isNullable: true },
          { name: 'name', type: 'varchar', length: '64' },
          value('source'),
          value('medium'),
          value('campaign'),
          value('term'),
          value('content'),
          { name: 'created_at', ...p.datetime() },
        ],
        indices: [
          new TableIndex({ name: 'IDX_utm_templates_owner', columnNames: ['owner_id'] }),
          new TableIndex({ name: 'IDX_utm_templates_team', columnNames: ['team_id'] }),
        ],
        foreignKeys: [
          {
            name: 'FK_utm_templates_owner',
            columnNames: ['owner_id'],
            referencedTableName: 'users',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
          },
          {
            name: 'FK_utm_templates_team',
            columnNames: ['team_id'],
            referencedTableName: 'teams',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
          },
        ],
      }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('utm_templates');
  }
}
