import { describe, expect, it } from 'vitest';
import { mapColumns, parseCsv, parseExpiry, rowToInput } from './import-rows';
import { csvCell } from './csv-cell';

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
  it('handles a BOM, quotes, separators and line breaks in fields', () => {
    const rows = parseCsv('\uFEFFurl,name\r\nhttps://a.example,"a, ""b""\nc"\r\n\r\n');
    expect(rows).toEqual([{ url: 'https://a.example', name: 'a, "b"\nc' }]);
  });
  it('detects `;` as the separator from the header line', () => {
    expect(parseCsv('url;name\nhttps://a.example/x,y;N')).toEqual([
      { url: 'https://a.example/x,y', name: 'N' },
    ]);
  });
  it('throws on an unclosed quote', () => {
    expect(() => parseCsv('url\n"https://a.example')).toThrow();
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
