import { type MigrationInterface, type QueryRunner, Table, TableIndex } from 'typeorm';
import { portable } from './portable';

/**
 * Link pages (CONTRACT "Marketing links"): `pages` (a user's or a team's page of links, public at
 * `/p/{slug}`), `page_links` (its links in order: one row per short, so a deleted short drops out
 * by its foreign key), `page_views` (views per page and UTC hour, written in batches) and
 * `domains.home_page` (the page an own domain's `/` shows).
 */
export class Pages1764030000000 implements MigrationInterface {
  name = 'Pages1764030000000';

  async up(q: QueryRunner): Promise<void> {
    const p = portable(q);
    await q.createTable(
      new Table({
        name: 'pages',
        columns: [
          { name: 'id', type: 'varchar', length: '36', isPrimary: true },
          /** Case-sensitive like a custom code; unique per instance. */
          { name: 'slug', type: 'varchar', length: '64', ...p.caseSensitive },
          /** Its creator; a team's page outlives him (null once he is deleted). */
          { name: 'owner_id', type: 'varchar', length: '36', isNullable: true },
          { name: 'team_id', type: 'varchar', length: '36', isNullable: true },
          { name: 'title', type: 'varchar', length: '120' },
          { name: 'description', type: 'varchar', length: '500', isNullable: true },
          { name: 'theme', type: 'varchar', length: '8' },
          { name: 'created_at', ...p.datetime() },
          { name: 'updated_at', ...p.datetime() },
        ],
        indices: [
          new TableIndex({ name: 'UQ_pages_slug', columnNames: ['slug'], isUnique: true }),
          new TableIndex({ name: 'IDX_pages_owner', columnNames: ['owner_id'] }),
          new TableIndex({ name: 'IDX_pages_team', columnNames: ['team_id'] }),
        ],
        foreignKeys: [
          {
            name: 'FK_pages_owner',
            columnNames: ['owner_id'],
            referencedTableName: 'users',
            referencedColumnNames: ['id'],
            onDelete: 'SET NULL',
          },
          {
            name: 'FK_pages_team',
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
        name: 'page_links',
        columns: [
          { name: 'page_id', type: 'varchar', length: '36', isPrimary: true },
          { name: 'position', type: 'integer', isPrimary: true },
          { name: 'short_id', type: 'varchar', length: '36' },
          { name: 'label', type: 'varchar', length: '120', isNullable: true },
        ],
        indices: [new TableIndex({ name: 'IDX_page_links_short', columnNames: ['short_id'] })],
        foreignKeys: [
          {
            name: 'FK_page_links_page',
            columnNames: ['page_id'],
            referencedTableName: 'pages',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
          },
          {
            name: 'FK_page_links_short',
            columnNames: ['short_id'],
            referencedTableName: 'shorts',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
          },
        ],
      }),
    );
    await q.createTable(
      new Table({
        name: 'page_views',
        columns: [
          { name: 'page_id', type: 'varchar', length: '36', isPrimary: true },
          { name: 'hour_no', type: 'integer', isPrimary: true },
          { name: 'views', type: 'integer', default: 0 },
          { name: 'bots', type: 'integer', default: 0 },
        ],
        foreignKeys: [
          {
            name: 'FK_page_views_page',
            columnNames: ['page_id'],
            referencedTableName: 'pages',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
          },
        ],
      }),
    );
    const quote = p.engine === 'mysql' ? '`' : '"';
    const t = (name: string) => `${quote}${name}${quote}`;
    if (p.engine === 'mysql') {
      await q.query(
        `ALTER TABLE ${t('domains')} ADD COLUMN ${t('home_page')} varchar(36) NULL, ADD CONSTRAINT ${t('FK_domains_home_page')} FOREIGN KEY (${t('home_page')}) REFERENCES ${t('pages')} (${t('id')}) ON DELETE SET NULL`,
      );
    } else {
      await q.query(
        `ALTER TABLE ${t('domains')} ADD COLUMN ${t('home_page')} varchar(36) NULL REFERENCES ${t('pages')} (${t('id')}) ON DELETE SET NULL`,
      );
    }
  }

  async down(q: QueryRunner): Promise<void> {
    const p = portable(q);
    const quote = p.engine === 'mysql' ? '`' : '"';
    const t = (name: string) => `${quote}${name}${quote}`;
    if (p.engine === 'mysql') {
      await q.query(`ALTER TABLE ${t('domains')} DROP FOREIGN KEY ${t('FK_domains_home_page')}`);
    }
    await q.query(`ALTER TABLE ${t('domains')} DROP COLUMN ${t('home_page')}`);
    await q.dropTable('page_views');
    await q.dropTable('page_links');
    await q.dropTable('pages');
  }
}
