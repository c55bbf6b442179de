import { type MigrationInterface, type QueryRunner, TableIndex } from 'typeorm';
import { portable } from './portable';

/**
 * Claims do not block (CONTRACT "Hardening"): a host is unique among *verified* domains only, so
 * several users may hold a pending claim on one host. `verified_host` repeats `host` while the
 * domain is verified and is NULL while it is pending; its unique index lets any number of pending
 * rows share a host (a unique index allows several NULLs on SQLite, MySQL/MariaDB and PostgreSQL)
 * and lets exactly one verify it (two verifications at once: the second meets the index). One user
 * holds at most one claim per host (`UQ_domains_host_owner`; shared domains have no owner but are
 * verified at once, so `verified_host` keeps them unique).
 */
export class DomainClaims1763895000000 implements MigrationInterface {
  name = 'DomainClaims1763895000000';

  async up(q: QueryRunner): Promise<void> {
    // A plain ADD COLUMN (the schema builder would rebuild the table on SQLite).
    const quote = portable(q).engine === 'mysql' ? '`' : '"';
    await q.query(
      `ALTER TABLE ${quote}domains${quote} ADD COLUMN ${quote}verified_host${quote} varchar(253) NULL`,
    );
    await q.query('UPDATE domains SET verified_host = host WHERE verified = 1');
    await q.createIndex(
      'domains',
      new TableIndex({
        name: 'UQ_domains_verified_host',
        columnNames: ['verified_host'],
        isUnique: true,
      }),
    );
    await q.createIndex(
      'domains',
      new TableIndex({
        name: 'UQ_domains_host_owner',
        columnNames: ['host', 'owner_id'],
        isUnique: true,
      }),
    );
    // Pending claims expire after 7 days: the job finds them by their age.
    await q.createIndex(
      'domains',
      new TableIndex({ name: 'IDX_domains_claims', columnNames: ['verified_host', 'created_at'] }),
    );
    await q.dropIndex('domains', 'UQ_domains_host');
  }

  async down(q: QueryRunner): Promise<void> {
    // Pending claims that share a host with another row cannot stay under a unique host.
    await q.query(
      'DELETE FROM domains WHERE verified_host IS NULL AND host IN (SELECT host FROM (SELECT host FROM domains GROUP BY host HAVING COUNT(*) > 1) AS dup)',
    );
    await q.createIndex(
      'domains',
      new TableIndex({ name: 'UQ_domains_host', columnNames: ['host'], isUnique: true }),
    );
    await q.dropIndex('domains', 'IDX_domains_claims');
    await q.dropIndex('domains', 'UQ_domains_host_owner');
    await q.dropIndex('domains', 'UQ_domains_verified_host');
    const quote = portable(q).engine === 'mysql' ? '`' : '"';
    await q.query(`ALTER TABLE ${quote}domains${quote} DROP COLUMN ${quote}verified_host${quote}`);
  }
}
