import { placeholders } from '../database/dialect';
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

/** Columns of a tag row, in the INSERT's order. */
const TAG_COLUMNS = ['short_id', 'tag', 'label', 'space'] as const;
/** Tag rows per INSERT (4 parameters each: far below every engine's parameter limit). */
const TAG_ROWS_PER_INSERT = 250;

/** One tag of one short as `short_tags` holds it. */
export interface TagRow {
  shortId: string;
  /** The short's space (`tagSpaceOf`). */
  space: string;
  /** The tag as the short spells it (normalised: normalizeTags); its key is the row's `tag`. */
  label: string;
}

/**
 * The multi-row INSERTs of tag rows. The tags of one short must be normalised (one spelling per
 * key, as `shorts.tags` holds them), else the rows' key (short, tag) is taken twice.
 */
export function* insertTagRows(tagRows: readonly TagRow[]): Generator<TxStep, void, unknown> {
  const tuple = `(${placeholders(TAG_COLUMNS.length)})`;
  for (let i = 0; i < tagRows.length; i += TAG_ROWS_PER_INSERT) {
    const chunk = tagRows.slice(i, i + TAG_ROWS_PER_INSERT);
    const values = chunk.map(() => tuple).join(', ');
    yield run(
      `INSERT INTO short_tags (${TAG_COLUMNS.join(', ')}) VALUES ${values}`,
      ...chunk.flatMap((r) => [r.shortId, tagKey(r.label), r.label, r.space]),
    );
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

/** Moves a short's tag rows to its new space (a team, or its owner's own space). */
export function* moveTagStatements(
  shortId: string,
  space: string | null,
): Generator<TxStep, void, unknown> {
  if (space === null) yield run('DELETE FROM short_tags WHERE short_id = ?', shortId);
  else yield run('UPDATE short_tags SET space = ? WHERE short_id = ?', space, shortId);
}
