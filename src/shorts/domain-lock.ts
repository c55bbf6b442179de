import type { EntityManager } from 'typeorm';
import { dialectSql, engineOf, type Engine } from '../database/dialect';
import { rows, type Row, type TxStep } from '../database/tx';

/** An own domain's row while it is verified (the write of a short onto it needs it). */
export const DOMAIN_ROW_SQL = 'SELECT 1 FROM domains WHERE id = ? AND verified_host = ?';

/** The shared lock of the domain's row (` LOCK IN SHARE MODE`, ` FOR SHARE`; SQLite: none). */
export function domainShareLock(engine: Engine): string {
  if (engine === 'mysql') return ' LOCK IN SHARE MODE';
  return engine === 'postgres' ? ' FOR SHARE' : '';
}

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
  const rows = (await m.query(dialectSql(engine, `${DOMAIN_ROW_SQL}${domainShareLock(engine)}`), [
    domain.id,
    domain.host,
  ])) as unknown[];
  return rows.length > 0;
}

/**
 * The same read as a step of a runTx body (the writes of shorts with their tag rows): whether the
 * domain's row is there, read with the shared lock. The body returns without writing when not.
 */
export function* domainStillThere(
  engine: Engine,
  domain: { id: string; host: string },
): Generator<TxStep, boolean, unknown> {
  const found = (yield rows(
    `${DOMAIN_ROW_SQL}${domainShareLock(engine)}`,
    domain.id,
    domain.host,
  )) as Row[];
  return found.length > 0;
}
