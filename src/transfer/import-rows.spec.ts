import { describe, expect, it } from 'vitest';
import { ValidationFailedError } from '../common/errors';
import { csvCell } from '../shared/csv-cell';
import { MAX_IMPORT_COLUMNS, MAX_IMPORT_RECORD, MAX_IMPORT_ROWS } from '../shared/limits';
import { mapImportColumns as mapColumns } from '../shared/short-fields';
import { checkRows, parseCsv, parseExpiry, rowToInput } from './import-rows';

const NOW = Date.UTC(2026, 0, 1, 12, 0, 0);

describe('import columns', () => {
  it('recognises the column names of our export, Shlink, YOURLS, Kutt and Bitly', () => {
    const m = (headers: string[]) => Object.fromEntries(mapColumns(headers));
    expect(m(['shortCode', 'longUrl', 'title', 'validUntil', 'maxVisits', 'tags'])).toEqual({
      shortCode: 'code',
      longUrl: 'url',
      title: 'name',
      validUntil: 'expireAt',
      maxVisits: 'maxUses',
      tags: 'tags',
    });
    expect(m(['keyword', 'url', 'title', 'timestamp'])).toEqual({
      keyword: 'code',
      url: 'url',
      title: 'name',
    });
    expect(m(['address', 'target', 'expire_in'])).toEqual({
      address: 'code',
      target: 'url',
      expire_in: 'expireAt',
    });
    expect(m(['Long URL', 'Custom URL', 'Title'])).toEqual({
      'Long URL': 'url',
      'Custom URL': 'code',
      Title: 'name',
    });
  });

  it('takes the first of two columns naming one field', () => {
    expect(Object.fromEntries(mapColumns(['url', 'long_url']))).toEqual({ url: 'url' });
  });
});

describe('parseCsv', () => {
  it('handles a BOM, quotes, separators and line breaks in fields', async () => {
    const rows = await parseCsv('\uFEFFurl,name\r\nhttps://a.example,"a, ""b""\nc"\r\n\r\n');
    expect(rows).toEqual([{ url: 'https://a.example', name: 'a, "b"\nc' }]);
  });
  it('detects `;` as the separator from the header line', async () => {
    expect(await parseCsv('url;name\nhttps://a.example/x,y;N')).toEqual([
      { url: 'https://a.example/x,y', name: 'N' },
    ]);
  });
  it('throws on an unclosed quote', async () => {
    await expect(parseCsv('url\n"https://a.example')).rejects.toThrow();
    const err = await parseCsv('url\n"https://a.example').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationFailedError);
    expect((err as ValidationFailedError).fieldErrors.csv).toMatch(/^not readable as CSV/);
  });

  const csvError = async (csv: string) => {
    const err = await parseCsv(csv).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationFailedError);
    return (err as ValidationFailedError).fieldErrors.csv;
  };

  it('takes 50 columns and refuses 51, in the header or in a row', async () => {
    const header = Array.from({ length: MAX_IMPORT_COLUMNS }, (_, i) => `c${i}`);
    header[0] = 'url';
    const row = ['https://a.example', ...Array.from({ length: 49 }, (_, i) => `v${i}`)];
    const rows = await parseCsv(`${header.join(',')}\n${row.join(',')}\n`);
    expect(Object.keys(rows[0])).toHaveLength(50);
    expect(await csvError(`${header.join(',')},c50\n${row.join(',')}\n`)).toBe(
      'at most 50 columns (line 1 has more)',
    );
    expect(await csvError(`${header.join(',')}\n${row.join(',')}\n${row.join(',')},x\n`)).toBe(
      'at most 50 columns (line 3 has more)',
    );
    // Separators inside quotes are text, not columns.
    const quoted = await parseCsv(`url,name\nhttps://a.example,"${','.repeat(200)}"\n`);
    expect(quoted[0].name).toBe(','.repeat(200));
  });

  it('refuses a header of a million empty cells at once', async () => {
    expect(await csvError('url' + ','.repeat(1_000_000) + '\nhttps://a.example\n')).toMatch(
      /^at most 50 columns/,
    );
    expect(await csvError('url' + ';'.repeat(1_000_000) + '\nhttps://a.example\n')).toMatch(
      /^at most 50 columns/,
    );
  });

  it('takes records of up to 64 KiB and refuses longer ones, quoted or not', async () => {
    const prefix = 'https://a.example,';
    const fits = 'x'.repeat(MAX_IMPORT_RECORD - prefix.length);
    const [row] = await parseCsv(`url,name\n${prefix}${fits}\n`);
    expect(row.name).toHaveLength(fits.length);
    expect(await csvError(`url,name\n${prefix}${fits}x\n`)).toBe(
      'records must not be longer than 64 KiB (line 2 is)',
    );
    expect(await csvError(`url,name\n${prefix}"${'y'.repeat(2_000_000)}"\n`)).toMatch(
      /^records must not be longer than 64 KiB/,
    );
    // Bytes count: 40,000 two-byte characters are 80,000 bytes.
    expect(await csvError(`url,name\n${prefix}${'ä'.repeat(40_000)}\n`)).toMatch(/64 KiB/);
  });

  it('takes 5,000 rows and refuses 5,001', async () => {
    const lines = (n: number) =>
      ['url', ...Array.from({ length: n }, (_, i) => `https://a.example/${i}`)].join('\n');
    expect(await parseCsv(lines(MAX_IMPORT_ROWS))).toHaveLength(MAX_IMPORT_ROWS);
    expect(await csvError(lines(MAX_IMPORT_ROWS + 1))).toBe('at most 5000 rows');
  });

  it('keeps characters that straddle two parse slices whole', async () => {
    // Names of 1 to 4 byte characters, long enough to cross several 8 KiB slice borders.
    const names = ['ä', '€', '😀', 'aä€😀'].map((c, i) => c.repeat(3000 + i));
    const csv = ['url,name', ...names.map((n, i) => `https://a.example/${i},${n}`)].join('\r\n');
    expect((await parseCsv(csv)).map((r) => r.name)).toEqual(names);
  });

  it('lets the event loop turn while it parses a large text', async () => {
    const csv =
      'url,name\n' +
      Array.from({ length: 5000 }, (_, i) => `https://a.example/${i},${'n'.repeat(380)}`).join(
        '\n',
      );
    expect(csv.length).toBeGreaterThan(1_900_000);
    let turns = 0;
    const ticker = setInterval(() => turns++, 0);
    try {
      expect(await parseCsv(csv)).toHaveLength(5000);
    } finally {
      clearInterval(ticker);
    }
    // Held for the whole parse, the timer would not have run once.
    expect(turns).toBeGreaterThan(5);
  });
});

describe('checkRows', () => {
  const rowsError = (rows: Array<Record<string, unknown>>) => {
    try {
      checkRows(rows);
    } catch (err) {
      expect(err).toBeInstanceOf(ValidationFailedError);
      return (err as ValidationFailedError).fieldErrors.rows;
    }
    throw new Error('not refused');
  };
  it('answers the column names of the rows', () => {
    expect(checkRows([{ url: 'a' }, { url: 'b', name: 'c' }, {}])).toEqual(['url', 'name']);
  });
  it('refuses more than 50 keys or 64 KiB of text in a row, and more than 5,000 rows', () => {
    const wide = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, 'v']));
    expect(rowsError([{ url: 'a' }, wide])).toBe('at most 50 columns (row 2 has more)');
    expect(rowsError([{ url: 'a', name: 'x'.repeat(MAX_IMPORT_RECORD) }])).toBe(
      'rows must not be longer than 64 KiB (row 1 is)',
    );
    expect(rowsError(Array.from({ length: MAX_IMPORT_ROWS + 1 }, () => ({ url: 'a' })))).toBe(
      'at most 5000 rows',
    );
    const fifty = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${i}`, 'v']));
    expect(checkRows([fifty])).toHaveLength(50);
  });
});

describe('parseExpiry', () => {
  it.each([
    ['2027-01-31T12:00:00Z', '2027-01-31T12:00:00.000Z'],
    ['2027-01-31T12:00:00+01:00', '2027-01-31T11:00:00.000Z'],
    ['2027-01-31 12:00:00', '2027-01-31T12:00:00.000Z'],
    ['2027-01-31', '2027-01-31T00:00:00.000Z'],
    ['31.01.2027', '2027-01-31T00:00:00.000Z'],
    ['31.01.2027 12:30', '2027-01-31T12:30:00.000Z'],
    ['2 days', '2026-01-03T12:00:00.000Z'],
    ['1 week', '2026-01-08T12:00:00.000Z'],
    ['30 minutes', '2026-01-01T12:30:00.000Z'],
  ])('%s → %s', (raw, iso) => {
    expect(parseExpiry(raw, NOW)).toBe(iso);
  });
  it.each(['31.02.2027', 'morgen', '2027-13-45', '', '12'])('%s is not a date', (raw) => {
    expect(parseExpiry(raw, NOW)).toBeNull();
  });
});

describe('rowToInput', () => {
  const mapping = mapColumns(['url', 'code', 'name', 'expireAt', 'maxUses']);
  it('maps a row and treats empty cells as absent', () => {
    expect(
      rowToInput(
        { url: ' https://a.example ', code: 'bit.ly/abc', name: '', maxUses: '3' },
        mapping,
        NOW,
      ),
    ).toEqual({ input: { url: 'https://a.example', code: 'abc', maxUses: 3 } });
  });
  it("takes back the `'` the export puts before a formula start", () => {
    expect(rowToInput({ url: 'https://a.example', name: "'=1+1" }, mapping, NOW)).toEqual({
      input: { url: 'https://a.example', name: '=1+1' },
    });
    expect(rowToInput({ url: 'https://a.example', name: "'plain" }, mapping, NOW)).toEqual({
      input: { url: 'https://a.example', name: "'plain" },
    });
    // A name that starts with `'` and a formula character comes back with its `'` (issue 18).
    expect(rowToInput({ url: 'https://a.example', name: "''=x" }, mapping, NOW)).toEqual({
      input: { url: 'https://a.example', name: "'=x" },
    });
  });
  it('reports the reason of a row it cannot take', () => {
    expect(rowToInput({ name: 'x' }, mapping, NOW)).toEqual({
      reason: 'url: missing',
      errorKey: 'url_missing',
    });
    expect(rowToInput({ url: 'https://a.example', maxUses: '2.5' }, mapping, NOW)).toEqual({
      reason: 'maxUses: must be a whole number',
      errorKey: 'uses_invalid',
    });
    expect(rowToInput({ url: 'https://a.example', maxUses: '9999999999' }, mapping, NOW)).toEqual({
      reason: expect.stringMatching(/^maxUses: must not be greater than/),
      errorKey: 'uses_invalid',
    });
    expect(rowToInput({ url: 'https://a.example', expireAt: '99999-01-01' }, mapping, NOW)).toEqual(
      {
        reason: 'expireAt: not a date',
        errorKey: 'expire_invalid',
      },
    );
    expect(rowToInput({ url: ['https://a.example'] }, mapping, NOW)).toEqual({
      reason: 'url: must be text or a number',
      errorKey: 'url_invalid',
    });
    expect(rowToInput({ url: 'https://a.example', name: { a: 1 } }, mapping, NOW)).toEqual({
      reason: 'name: must be text or a number',
      errorKey: 'name_invalid',
    });
  });
});

describe('csvCell', () => {
  it('escapes formula starts and quotes cells with separators, quotes and line breaks', () => {
    expect(csvCell('=1+1')).toBe("'=1+1");
    expect(csvCell('+49 30')).toBe("'+49 30");
    expect(csvCell('-2')).toBe("'-2");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('a;b')).toBe('"a;b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('x\ny')).toBe('"x\ny"');
    expect(csvCell(null)).toBe('');
    expect(csvCell(5)).toBe('5');
    expect(csvCell(true)).toBe('true');
  });
});
