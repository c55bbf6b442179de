import { type Engine, placeholders } from '../database/dialect';
import { joinTags, MAX_TAGS, mergeTags, splitTags, tagKey } from '../shared/tags';
import { type Row, rows, run, type TxStep } from '../database/tx';
import {
  insertTagRows,
  moveTagStatements,
  removeTagStatements,
  type TagRow,
  tagRowsOf,
} from './short-tags';

/**
 * The transaction of a bulk edit (ShortBulkService), as a body of runTx: plain data in and out and
 * no imports of Nest or TypeORM, so that on a SQLite file it runs on a thread of its own
 * (bulk-thread.ts) as well as through runTx on the app's connection.
 */

/** Ids per statement (an `IN` list). */
const IDS_PER_STATEMENT = 500;

/** A short as the bulk edit reads it: identity, space and tags. */
export interface BulkRow {
  id: string;
  code: string;
  domain: string;
  ownerId: string | null;
  teamId: string | null;
  tags: string | null;
}

/** What a bulk edit does to each short, checked and normalised. */
export interface BulkPlan {
  delete: boolean;
  /** What `set` writes to every short (absent: unchanged; null clears). */
  expireAt?: Date | null;
  maxUses?: number | null;
  /** `set.team` was given: the space every short moves to (null: the caller's own space). */
  moveTo?: { teamId: string | null };
  /** Tags added (cleaned, first spelling of each key) and the keys taken off. */
  add: string[];
  remove: string[];
}

/** What the transaction is given. */
export interface BulkTxInput {
  /** The shorts as the rights were checked on them. */
  shorts: BulkRow[];
  plan: BulkPlan;
  /** The caller (the owner of shorts moved out of a team). */
  actorId: string;
  /** The SQL names of the columns written (ShortEntity's: sqlColumnOf). */
  columns: { expireAt: string; maxUses: string; teamId: string; ownerId: string };
}

/** The outcome of the transaction: done, or refused with nothing written. */
export type BulkTxOutcome =
  | { kind: 'ok' }
  | { kind: 'gone'; ids: string[] }
  | { kind: 'moved'; ids: string[] }
  | { kind: 'tooMany'; ids: string[] };

export function chunks<T>(list: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}

/** Ids grouped by a value (the statements that write the same value to many shorts). */
function groupBy<V>(entries: Iterable<[string, V]>): Map<V, string[]> {
  const groups = new Map<V, string[]>();
  for (const [id, v] of entries) {
    const list = groups.get(v);
    if (list) list.push(id);
    else groups.set(v, [id]);
  }
  return groups;
}

/**
 * The space key of a short's tags (as short-tag.entity.ts's tagSpaceOf, which this module may not
 * import: it loads TypeORM): its team's, else its owner's own; anonymous shorts have none.
 */
export function tagSpace(s: { ownerId: string | null; teamId: string | null }): string | null {
  if (s.teamId) return `t:${s.teamId}`;
  if (s.ownerId) return `u:${s.ownerId}`;
  return null;
}

/** A short's owner and team after the edit (a move out of a team goes to the caller's space). */
export function spaceAfter(
  s: Pick<BulkRow, 'ownerId' | 'teamId'>,
  plan: BulkPlan,
  actorId: string,
): { ownerId: string | null; teamId: string | null } {
  if (!plan.moveTo) return { ownerId: s.ownerId, teamId: s.teamId };
  if (plan.moveTo.teamId !== null) return { ownerId: s.ownerId, teamId: plan.moveTo.teamId };
  return s.teamId !== null
    ? { ownerId: actorId, teamId: null }
    : { ownerId: s.ownerId, teamId: null };
}

/**
 * A short's tags after the edit: `add` merged in, `remove` taken off; anonymous shorts (an
 * admin's edit) have no space to count tags in, so theirs stay as they are.
 */
export function tagsAfter(
  s: Pick<BulkRow, 'ownerId' | 'teamId'>,
  current: string | null,
  plan: BulkPlan,
  actorId: string,
): string[] {
  const before = splitTags(current);
  if (tagSpace(spaceAfter(s, plan, actorId)) === null) return before;
  return mergeTags(before, plan.add, plan.remove);
}

/**
 * The edit as one transaction: locks the shorts' rows (`FOR UPDATE` on MariaDB and PostgreSQL;
 * SQLite's writer lock) and reads them afresh; a short that is gone or has moved to another space
 * since the rights were checked refuses the whole edit, as does one that would carry more than
 * MAX_TAGS tags (read from the locked row: a concurrent edit of its tags is not lost). Then the
 * writes, a statement per group of shorts that get the same value; `shorts.tags` and `short_tags`
 * together, `short_tags.space` with a move.
 */
export function* bulkWrite(
  tx: { engine: Engine; lock: string },
  { shorts, plan, actorId, columns }: BulkTxInput,
): Generator<TxStep, BulkTxOutcome, unknown> {
  const ids = shorts.map((s) => s.id);
  const locked = new Map<string, Row>();
  for (const part of chunks([...ids].sort(), IDS_PER_STATEMENT)) {
    const found = (yield rows(
      `SELECT id, ${columns.ownerId} AS owner_id, ${columns.teamId} AS team_id, tags FROM shorts WHERE id IN (${placeholders(part.length)}) ORDER BY id${tx.lock}`,
      ...part,
    )) as Row[];
    for (const r of found) locked.set(String(r.id), r);
  }
  const gone = ids.filter((id) => !locked.has(id));
  if (gone.length) return { kind: 'gone', ids: gone };
  const moved = shorts.filter((s) => {
    const r = locked.get(s.id) as Row;
    return (r.owner_id ?? null) !== s.ownerId || (r.team_id ?? null) !== s.teamId;
  });
  if (moved.length) return { kind: 'moved', ids: moved.map((s) => s.id) };

  if (plan.delete) {
    for (const part of chunks(ids, IDS_PER_STATEMENT)) {
      yield run(`DELETE FROM shorts WHERE id IN (${placeholders(part.length)})`, ...part);
    }
    return { kind: 'ok' };
  }

  const then = new Map<string, string[]>();
  const now = new Map<string, string[]>();
  const spaces = new Map<string, string | null>();
  for (const s of shorts) {
    const current = (locked.get(s.id) as Row).tags as string | null;
    then.set(s.id, splitTags(current));
    now.set(s.id, tagsAfter(s, current, plan, actorId));
    spaces.set(s.id, tagSpace(spaceAfter(s, plan, actorId)));
  }
  const over = ids.filter((id) => (now.get(id) as string[]).length > MAX_TAGS);
  if (over.length) return { kind: 'tooMany', ids: over };

  // The set fields, the same for every short.
  const sets: string[] = [];
  const values: unknown[] = [];
  if (plan.expireAt !== undefined) {
    sets.push(`${columns.expireAt} = ?`);
    values.push(plan.expireAt);
  }
  if (plan.maxUses !== undefined) {
    sets.push(`${columns.maxUses} = ?`);
    values.push(plan.maxUses);
  }
  if (plan.moveTo?.teamId) {
    sets.push(`${columns.teamId} = ?`);
    values.push(plan.moveTo.teamId);
  }
  if (sets.length) {
    for (const part of chunks(ids, IDS_PER_STATEMENT)) {
      yield run(
        `UPDATE shorts SET ${sets.join(', ')} WHERE id IN (${placeholders(part.length)})`,
        ...values,
        ...part,
      );
    }
  }
  // Out of a team into the caller's own space (shorts in his space already stay as they are).
  if (plan.moveTo?.teamId === null) {
    const leaving = shorts.filter((s) => s.teamId !== null).map((s) => s.id);
    for (const part of chunks(leaving, IDS_PER_STATEMENT)) {
      yield run(
        `UPDATE shorts SET ${columns.teamId} = NULL, ${columns.ownerId} = ? WHERE id IN (${placeholders(part.length)})`,
        actorId,
        ...part,
      );
    }
  }

  // shorts.tags: one statement per resulting value.
  const retagged = ids.filter(
    (id) => joinTags(now.get(id) as string[]) !== joinTags(then.get(id) as string[]),
  );
  const byValue = groupBy(retagged.map((id) => [id, joinTags(now.get(id) as string[])]));
  for (const [value, group] of byValue) {
    for (const part of chunks(group, IDS_PER_STATEMENT)) {
      yield run(
        `UPDATE shorts SET tags = ? WHERE id IN (${placeholders(part.length)})`,
        value,
        ...part,
      );
    }
  }

  // short_tags: the space of moved shorts' rows, the keys taken off, the keys added.
  const moving = shorts.filter(
    (s) => spaces.get(s.id) !== tagSpace(s) && (then.get(s.id) as string[]).length > 0,
  );
  const bySpace = groupBy(moving.map((s) => [s.id, spaces.get(s.id) as string]));
  for (const [space, group] of bySpace) yield* moveTagStatements(group, space);
  if (plan.remove.length) {
    // A short's keys that are in `remove` are not among its tags after the edit (remove wins).
    const removedFrom = retagged.filter((id) =>
      (then.get(id) as string[]).some((t) => plan.remove.includes(tagKey(t))),
    );
    yield* removeTagStatements(removedFrom, plan.remove);
  }
  const added: TagRow[] = [];
  for (const id of retagged) {
    const before = new Set((then.get(id) as string[]).map(tagKey));
    const fresh = (now.get(id) as string[]).filter((tag) => !before.has(tagKey(tag)));
    added.push(...tagRowsOf(id, spaces.get(id) as string, fresh));
  }
  yield* insertTagRows(added, tx.engine);
  return { kind: 'ok' };
}
