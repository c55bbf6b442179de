import { type Engine, insertIgnoringFrom, placeholders } from '../database/dialect';
import { run, type TxStep } from '../database/tx';
import { tagKey } from '../shared/tags';

/*
 * The statements that keep `short_tags` (one row per short and tag key, with the short's space:
 * ShortTagEntity) in step with a short's `tags` column. They are yielded into a transaction
 * (database/tx.ts `runTx`) that writes the short's row as well, so the column and the rows never
 * disagree: a create with tags, an import's chunk, an edit of the tags, a move to another space,
 * and a bulk edit. Every write that changes a short's tags or its space goes through here (a
 * team's short handed to another owner of the team keeps its space: TeamsService.releaseUser).
 */

/** Columns of a tag row, in the INSERT's order (`created_at` read from the short's row). */
const TAG_COLUMNS = ['short_id', 'tag', 'label', 'space', 'created_at'] as const;
/**
 * Tag rows per INSERT (4 parameters each: far below every engine's parameter limit, and half of
 * SQLite's 500 terms of a compound SELECT).
 */
const TAG_ROWS_PER_INSERT = 250;
/** Ids per statement (an `IN` list) of the set-wise updates and deletes. */
const IDS_PER_STATEMENT = 500;

function chunksOf<T>(list: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}

/** One tag of one short as `short_tags` holds it. */
export interface TagRow {
  shortId: string;
  /** The short's space (`tagSpaceOf`). */
  space: string;
  /** The tag as the short spells it (normalised: normalizeTags); its key is the row's `tag`. */
  label: string;
}

/**
 * The INSERT of `rows` tag rows, each a SELECT of its short's row (parameters: key, spelling,
 * space, short id), so that every row carries its short's `created_at` exactly as the short's row
 * holds it (whatever the engine's type and precision) and a row of a short that is not there is
 * not written. With `ignoringTakenOn` (the engine), a row whose key (short, tag) is stored already
 * is left as it is.
 */
export function tagRowsInsertSql(rows: number, ignoringTakenOn?: Engine): string {
  const one = 'SELECT s.id, ?, ?, ?, s.created_at FROM shorts s WHERE s.id = ?';
  const select = Array.from({ length: rows }, () => one).join(' UNION ALL ');
  const rowsSql = `(${TAG_COLUMNS.join(', ')}) ${select}`;
  return ignoringTakenOn
    ? insertIgnoringFrom(ignoringTakenOn, 'short_tags', rowsSql, ['short_id', 'tag'])
    : `INSERT INTO short_tags ${rowsSql}`;
}

/** tagRowsInsertSql's parameters of `rows`. */
export function tagRowsInsertParams(rows: readonly TagRow[]): string[] {
  return rows.flatMap((r) => [tagKey(r.label), r.label, r.space, r.shortId]);
}

/**
 * The multi-row INSERTs of tag rows (tagRowsInsertSql). The tags of one short must be normalised
 * (one spelling per key, as `shorts.tags` holds them), else the rows' key (short, tag) is taken
 * twice. With `ignoringTakenOn` (the engine), a row whose key is stored already is left as it is
 * (a bulk edit's added tags, which a short may carry in another spelling).
 */
export function* insertTagRows(
  tagRows: readonly TagRow[],
  ignoringTakenOn?: Engine,
): Generator<TxStep, void, unknown> {
  for (const chunk of chunksOf(tagRows, TAG_ROWS_PER_INSERT)) {
    yield run(tagRowsInsertSql(chunk.length, ignoringTakenOn), ...tagRowsInsertParams(chunk));
  }
}

/** The tag rows of a short's normalised tags in its space. */
export function tagRowsOf(shortId: string, space: string, tags: readonly string[]): TagRow[] {
  return tags.map((label) => ({ shortId, space, label }));
}

/**
 * Sets a short's tag rows to `tags` (normalised, as its `tags` column holds them) in `space`: its
 * rows deleted, the new ones inserted in one statement. A short without a space (an anonymous one,
 * which only an admin can give tags) keeps no rows: its tags are in its column only.
 */
export function* tagStatements(
  shortId: string,
  space: string | null,
  tags: readonly string[],
): Generator<TxStep, void, unknown> {
  yield run('DELETE FROM short_tags WHERE short_id = ?', shortId);
  if (space !== null && tags.length > 0) yield* insertTagRows(tagRowsOf(shortId, space, tags));
}

/** Moves shorts' tag rows to their new space (a team, or the owner's own space). */
export function* moveTagStatements(
  shortIds: readonly string[],
  space: string | null,
): Generator<TxStep, void, unknown> {
  for (const part of chunksOf(shortIds, IDS_PER_STATEMENT)) {
    const ids = placeholders(part.length);
    if (space === null) yield run(`DELETE FROM short_tags WHERE short_id IN (${ids})`, ...part);
    else yield run(`UPDATE short_tags SET space = ? WHERE short_id IN (${ids})`, space, ...part);
  }
}

/** Takes the tag keys `keys` off the shorts `shortIds` (their other tags stay). */
export function* removeTagStatements(
  shortIds: readonly string[],
  keys: readonly string[],
): Generator<TxStep, void, unknown> {
  if (keys.length === 0) return;
  for (const part of chunksOf(shortIds, IDS_PER_STATEMENT)) {
    yield run(
      `DELETE FROM short_tags WHERE short_id IN (${placeholders(part.length)}) AND tag IN (${placeholders(keys.length)})`,
      ...part,
      ...keys,
    );
  }
}
