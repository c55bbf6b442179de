import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { csvCell, escapeCell, FORMULA_START, unescapeCell } from './csv-cell';
import { parseCsv } from '../transfer/import-rows';

/** Texts that start like a formula, an escaped cell or neither, then anything. */
const cellText = fc.oneof(
  fc.string({ unit: 'binary' }),
  fc.string({ unit: 'binary-ascii' }),
  fc
    .tuple(
      fc.constantFrom("'", "''", "'''", '=', '+', '-', '@', '\t', '\r', "'=", "'+", "'\t", "' "),
      fc.string({ unit: fc.constantFrom("'", '=', '+', '-', '@', '\t', '\r', 'a', ' ', '"') }),
    )
    .map(([start, rest]) => start + rest),
);

describe('escapeCell and unescapeCell', () => {
  it('are exact inverses for every string', () => {
    fc.assert(
      fc.property(cellText, (s) => {
        expect(unescapeCell(escapeCell(s))).toBe(s);
      }),
      { numRuns: 2000 },
    );
  });

  it('never leave a cell that starts with =, +, -, @, tab or CR', () => {
    fc.assert(
      fc.property(cellText, (s) => {
        expect(escapeCell(s)).not.toMatch(FORMULA_START);
        expect(escapeCell(s)).not.toMatch(/^[=+\-@\t\r]/);
      }),
      { numRuns: 2000 },
    );
  });

  it('escape a formula start, and a quote before one or before another quote', () => {
    expect(escapeCell('=1+1')).toBe("'=1+1");
    expect(escapeCell("'=x")).toBe("''=x");
    expect(escapeCell("''")).toBe("'''");
    expect(escapeCell("'plain")).toBe("'plain");
    expect(escapeCell("'")).toBe("'");
    expect(unescapeCell("''=x")).toBe("'=x");
    expect(unescapeCell("'plain")).toBe("'plain");
  });

  it('come back exactly through a CSV file (quoted cells, the import parser)', async () => {
    // Stored names and codes never start or end with white space (names are trimmed), and the
    // parser trims unquoted cells, so the round trip is exact for the texts a short can hold.
    await fc.assert(
      fc.asyncProperty(
        cellText.filter((s) => s !== '' && s === s.trim() && !s.includes('\0')),
        async (s) => {
          const [row] = await parseCsv(`code,name\r\nc-1,${csvCell(s)}\r\n`);
          expect(unescapeCell(row.name)).toBe(s);
        },
      ),
      { numRuns: 500 },
    );
  });
});
