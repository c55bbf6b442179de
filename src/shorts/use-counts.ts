import type { BatchRunner } from '../database/apply-once';
import { dialectSql, type Engine } from '../database/dialect';

/** Ids per statement (far below every engine's parameter limit). */
const IDS_PER_STATEMENT = 500;
/** Ids per statement on PostgreSQL, as one array parameter (a batch's in one statement). */
const PG_IDS_PER_STATEMENT = 5_000;

/**
 * Adds buffered use counts inside a batch transaction (see applyOnce): one `UPDATE … WHERE id IN`
 * per distinct count and chunk of ids (on PostgreSQL one `UPDATE … FROM unnest` of ids and counts
 * per chunk), not one per short (a follow of many different shorts, as
 * in the cache-miss bench, puts thousands of shorts into a batch, nearly all with the same count).
 * Raw SQL on the runner only, so that the statistics writer's thread (its own connection, no
 * entities) runs the same statements (StatsWriterThread).
 */
export async function addUseCounts(
  runner: BatchRunner,
  engine: Engine,
  counts: ReadonlyMap<string, number>,
): Promise<void> {
  if (engine === 'postgres') {
    // One statement for every count: the ids and their counts as two arrays.
    const ids = [...counts.keys()];
    for (let i = 0; i < ids.length; i += PG_IDS_PER_STATEMENT) {
      const chunk = ids.slice(i, i + PG_IDS_PER_STATEMENT);
      await runner.query(
        'UPDATE shorts SET uses = shorts.uses + u.n FROM unnest($1::text[], $2::int[]) AS u(id, n) WHERE shorts.id = u.id',
        [chunk, chunk.map((id) => counts.get(id))],
      );
    }
    return;
  }
  const byCount = new Map<number, string[]>();
  for (const [id, n] of counts) {
    const ids = byCount.get(n);
    if (ids) ids.push(id);
    else byCount.set(n, [id]);
  }
  for (const [n, ids] of byCount) {
    for (let i = 0; i < ids.length; i += IDS_PER_STATEMENT) {
      const chunk = ids.slice(i, i + IDS_PER_STATEMENT);
      const sql = dialectSql(
        engine,
        `UPDATE shorts SET uses = uses + ? WHERE id IN (${chunk.map(() => '?').join(', ')})`,
      );
      await runner.query(sql, [n, ...chunk]);
    }
  }
}

/** Which of these short ids exist: raw SQL, for a connection without entities (as above). */
export async function existingShortIds(
  query: (sql: string, params: unknown[]) => Promise<unknown>,
  engine: Engine,
  ids: readonly string[],
): Promise<Set<string>> {
  const found = new Set<string>();
  for (let i = 0; i < ids.length; i += IDS_PER_STATEMENT) {
    const chunk = ids.slice(i, i + IDS_PER_STATEMENT);
    const rows = (await query(
      dialectSql(engine, `SELECT id FROM shorts WHERE id IN (${chunk.map(() => '?').join(', ')})`),
      chunk,
    )) as Array<{ id: unknown }>;
    for (const r of rows) found.add(String(r.id));
  }
  return found;
}
