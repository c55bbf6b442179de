import { describe, expect, it } from 'vitest';
import type { Short } from '../api/client';
import { ApiError } from '../api/errors';
import { changesOf, editErrorMessage, expiryText, fieldsOf } from './edit';
import { parseExpiry } from './expiry';
import { mapColumns, parseImportCsv, skippedCsv, skippedReason } from './import';

const short: Short = {
  id: '5f0c6a0e-4a8a-4c53-9a34-1f6f7f4f2c11',
  code: 'abc1234',
  name: 'Alt',
  url: 'https://example.com/a',
  hasPassword: true,
  maxUses: 5,
  createdAt: '2026-01-01T10:00:00.000Z',
  expireAt: '2027-03-04T05:06:00.000Z',
  owner: null,
  dangers: false,
} as Short;

describe('edit form', () => {
  it('prefills the expiry as text that the German parser reads back to the same minute', async () => {
    const text = expiryText(short.expireAt);
    expect(text).toMatch(/^\d{2}\.\d{2}\.2027 \d{2}:\d{2}$/);
    expect((await parseExpiry(text, new Date('2026-06-01')))?.toISOString()).toBe(short.expireAt);
  });

  it('sends nothing for an untouched form', () => {
    expect(changesOf(short, fieldsOf(short), new Date(short.expireAt!))).toEqual({});
  });

  it('sends only the changed fields; cleared fields as null', () => {
    const f = {
      ...fieldsOf(short),
      url: ' https://example.org/b ',
      expiry: '',
      maxUses: '',
      name: '',
    };
    expect(changesOf(short, f, null)).toEqual({
      url: 'https://example.org/b',
      expireAt: null,
      maxUses: null,
      name: null,
    });
  });

  it('a new expiry text sends the understood date; a new password or its removal', () => {
    const when = new Date('2028-01-01T12:00:00Z');
    expect(changesOf(short, { ...fieldsOf(short), expiry: 'in 2 Jahren' }, when)).toEqual({
      expireAt: when.toISOString(),
    });
    expect(changesOf(short, { ...fieldsOf(short), password: 'neu' }, null).password).toBe('neu');
    expect(
      changesOf(short, { ...fieldsOf(short), password: 'ignoriert', removePassword: true }, null)
        .password,
    ).toBeNull();
    expect(
      changesOf(short, { ...fieldsOf(short), code: 'neuer-code', maxUses: '9' }, null),
    ).toEqual(expect.objectContaining({ code: 'neuer-code', maxUses: 9 }));
  });

  it('maps edit errors to German: by detail, by field, else the general text', () => {
    const problem = (body: object, status = 400) =>
      new ApiError(status, { type: 'about:blank', title: 'x', status, ...body } as never);
    expect(editErrorMessage(problem({ detail: 'Code already exists' }, 409))).toBe(
      'Der Code ist bereits vergeben',
    );
    expect(
      editErrorMessage(problem({ detail: 'Validation failed', fieldErrors: { url: 'bad' } })),
    ).toBe('Die URL ist ungültig');
    expect(editErrorMessage(problem({ detail: 'toString' }))).toBe(
      'Der Short konnte nicht gespeichert werden',
    );
    expect(editErrorMessage(new Error('x'))).toBe('Der Short konnte nicht gespeichert werden');
  });
});

describe('import', () => {
  it('maps the columns of the peers like the server; the first column of a field wins', () => {
    expect(mapColumns(['shortCode', 'longUrl', 'title', 'tags', 'url'])).toEqual([
      ['shortCode', 'code'],
      ['longUrl', 'url'],
      ['title', 'name'],
      ['tags', null],
      ['url', null],
    ]);
    expect(mapColumns(['Long URL', 'keyword', 'validUntil', 'maxVisits'])).toEqual([
      ['Long URL', 'url'],
      ['keyword', 'code'],
      ['validUntil', 'expireAt'],
      ['maxVisits', 'maxUses'],
    ]);
  });

  it('parses CSV with a BOM, `;`, quotes and line breaks in fields', async () => {
    const parsed = await parseImportCsv(
      '\uFEFFurl;name\r\nhttps://a.example;"Zwei\nZeilen; ""x"""\r\n',
    );
    expect(parsed).toEqual({
      headers: ['url', 'name'],
      rows: [{ url: 'https://a.example', name: 'Zwei\nZeilen; "x"' }],
    });
    await expect(parseImportCsv('url\n"offen')).rejects.toThrow();
  });

  it('gives skipped rows German reasons and writes them as CSV with formulas escaped', () => {
    expect(skippedReason('Code already exists')).toBe('Der Code ist bereits vergeben');
    expect(skippedReason('url: missing')).toBe('Die URL fehlt');
    expect(skippedReason('url: must be an absolute http(s) URL')).toBe('Die URL ist ungültig');
    expect(skippedReason('something new')).toBe('Die Zeile wurde nicht übernommen (something new)');
    expect(
      skippedCsv([
        { row: 2, code: '=evil', reason: 'URL is blacklisted', errorKey: 'url_blacklisted' },
      ]),
    ).toBe(
      "Zeile,Code,Grund\r\n2,'=evil,Der Link ist auf der Blacklist. Du darfst auf ihn nicht verlinken\r\n",
    );
  });
});
