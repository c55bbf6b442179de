import type { EntityManager } from 'typeorm';
import { dialectSql, engineOf } from '../database/dialect';

/** An own domain's row while it is verified (the write of a short onto it needs it). */
export const DOMAIN_ROW_SQL = 'SELECT 1 FROM domains WHERE id = ? AND verified_host = ?';

/**
 * Reads the domain's row with a shared lock inside `m`'s transaction (MariaDB and PostgreSQL):
 * whether it is there. A short is written onto an own domain only after this (see
 * ShortInsertRepository.insertOnDomain).
 */
export async function lockDomain(
  m: EntityManager,
  domain: { id: string; host: string },
): Promise<boolean> {
  const engine = engineOf(m.connection);
  const lock = engine === 'mysql' ? 'LOCK IN SHARE MODE' : 'FOR SHARE';
  const rows = (await m.query(dialectSql(engine, `${DOMAIN_ROW_SQL} ${lock}`), [
    domain.id,
    domain.host,
  ])) as unknown[];
  return rows.length > 0;
}
