/**
 * The cell rules of our CSV export and import, as pure functions: the escape the export writes and
 * its exact inverse, which the import applies. Kept together so they cannot drift apart.
 *
 * A spreadsheet runs a cell that starts with `=`, `+`, `-`, `@`, tab or CR as a formula, so the
 * export puts a `'` before such a cell. To keep that reversible for every text, a cell that starts
 * with `'` followed by one of those characters or another `'` gets one more `'` too; the import
 * takes exactly one leading `'` off a cell that starts that way. The web client's report of
 * skipped rows writes its cells with csvCell too.
 */

/** Starts a cell that a spreadsheet would run as a formula. */
export const FORMULA_START = /^[=+\-@\t\r]/;

/** A cell that the export escaped: `'` before a formula start or before another `'`. */
const ESCAPED = /^'[=+\-@\t\r']/;

/** The text as the export writes it: never starts with a formula character. */
export function escapeCell(text: string): string {
  return FORMULA_START.test(text) || ESCAPED.test(text) ? `'${text}` : text;
}

/** The inverse of escapeCell: `unescapeCell(escapeCell(s)) === s` for every string `s`. */
export function unescapeCell(text: string): string {
  return ESCAPED.test(text) ? text.slice(1) : text;
}

/**
 * One CSV cell of the export: escaped (escapeCell), then quoted when it holds a separator (`,` or
 * `;`), a quote or a line break. `null` and `undefined` are an empty cell.
 */
export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text = escapeCell(String(value));
  return /[",\r\n;]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
