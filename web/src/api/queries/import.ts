import { type ImportRow, type SkippedRow } from '../../lib/import';
import { createTeamId } from '../../state/space';
import { api, unwrap } from '../client';

/** Rows per request: each stays far below the server's 2 MB body limit, and the bar moves. */
export const IMPORT_CHUNK = 250;

export interface ImportOutcome {
  created: number;
  skipped: SkippedRow[];
}

/**
 * Sends the rows in chunks of IMPORT_CHUNK (`{rows}`), reporting progress; skipped row numbers are
 * made file-wide (from 1). A failed chunk stops the import: what was sent before stays created.
 */
export async function sendImport(
  rows: readonly ImportRow[],
  onProgress: (done: number) => void,
): Promise<ImportOutcome> {
  const outcome: ImportOutcome = { created: 0, skipped: [] };
  // Into the chosen team's space, when the caller may write there (CONTRACT "Teams").
  const team = createTeamId();
  const inTeam = team ? { team } : {};
  for (let start = 0; start < rows.length; start += IMPORT_CHUNK) {
    const chunk = rows.slice(start, start + IMPORT_CHUNK);
    const result = await unwrap(api.POST('/api/code/import', { body: { rows: chunk, ...inTeam } }));
    outcome.created += result.created;
    outcome.skipped.push(...result.skipped.map((s) => ({ ...s, row: s.row + start })));
    onProgress(start + chunk.length);
  }
  return outcome;
}
