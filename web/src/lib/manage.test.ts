import { CUSTOM_CODE_PATTERN, MAX_IMPORT_COLUMNS, MAX_IMPORT_ROWS } from '@shared/limits';
import { SHORT_FIELD_NAMES } from '@shared/short-fields';
import { describe, expect, it } from 'vitest';
import type { Short } from '../api/client';
import { ApiError } from '../api/errors';
import { errorText } from './errors';
import { parseExpiry } from './expiry';
import {
  importRefusal,
  mapColumns,
  parseImportCsv,
  skippedCsv,
  skippedReason,
  urlColumnNames,
} from './import';
import {
  changesOf,
  createBody,
  emptyValues,
  expiryText,
  fieldsOf,
  formFields,
  htmlPattern,
  isRequired,
} from './short-form';
import { usesText } from './uses';

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

describe('the form of a short (create and edit)', () => {
  it('anonymous callers get the fields set by anonymous; logged-in callers all but the team and the QR style, in table order', () => {
    expect(formFields(false)).toEqual(['url', 'password']);
    // The team is the space the user works in (the switcher), a move its own dialog; the QR style
    // is the QR dialog's.
    expect(formFields(true)).toEqual(
      SHORT_FIELD_NAMES.filter((n) => n !== 'team' && n !== 'qrStyle'),
    );
  });

  it('needs the url always and, on edit, the fields that cannot be cleared', () => {
    expect(SHORT_FIELD_NAMES.filter((n) => isRequired(n, 'create'))).toEqual(['url']);
    expect(SHORT_FIELD_NAMES.filter((n) => isRequired(n, 'edit'))).toEqual(['url', 'code']);
  });

  it("gives the code pattern to the browser as its `v`-flag pattern, anchored like the server's", () => {
    const pattern = htmlPattern(CUSTOM_CODE_PATTERN.source)!;
    const browser = new RegExp(`^(?:${pattern})$`, 'v');
    for (const code of ['abc', 'a_b-c', 'X'.repeat(64), 'summer-sale'])
      expect([code, browser.test(code)]).toEqual([code, CUSTOM_CODE_PATTERN.test(code)]);
    for (const code of ['ab', 'X'.repeat(65), 'a b', 'ä-code', 'a/b', '-', 'a.b'])
      expect([code, browser.test(code)]).toEqual([code, false]);
    expect(htmlPattern(undefined)).toBeUndefined();
  });

  it('creates with what the caller may set: empty fields as null, the understood expiry', () => {
    const when = new Date('2030-01-02T03:04:00Z');
    const values = {
      ...emptyValues(),
      url: ' https://example.org/x ',
      code: ' mein-code ',
      expireAt: 'in 2 Tagen',
      maxUses: '7',
    };
    expect(createBody(values, when, true)).toEqual({
      url: 'https://example.org/x',
      password: null,
      code: 'mein-code',
      name: null,
      expireAt: when.toISOString(),
      maxUses: 7,
      domain: null, // this service's host
      expiredUrl: null,
      rules: null, // none
      tags: null, // none
      preview: null, // none
    });
    // Anonymous: url and password only (a password is taken as typed, spaces too).
    expect(createBody({ ...values, password: ' geheim ' }, when, false)).toEqual({
      url: 'https://example.org/x',
      password: ' geheim ',
    });
    // An expiry that is not understood is sent as none (SPEC: unparsable becomes null).
    expect(createBody(values, null, true).expireAt).toBeNull();
  });
});

describe('edit form', () => {
  it('prefills the expiry as text that the German parser reads back to the same minute', async () => {
    const text = expiryText(short.expireAt);
    expect(text).toMatch(/^\d{2}\.\d{2}\.2027 \d{2}:\d{2}$/);
    expect((await parseExpiry(text, new Date('2026-06-01')))?.toISOString()).toBe(short.expireAt);
    expect(fieldsOf(short)).toEqual({
      url: 'https://example.com/a',
      password: '',
      code: 'abc1234',
      name: 'Alt',
      expireAt: text,
      maxUses: '5',
      domain: '',
      expiredUrl: '',
      rules: [],
      team: '',
      tags: '',
      preview: { title: '', description: '', image: '' },
      qrStyle: '',
      removePassword: false,
    });
  });

  it("never moves a short as a side effect of an edit: its team is not the form's", () => {
    const inTeam = { ...short, team: { id: 'team-1', name: 'Redaktion' } };
    expect(fieldsOf(inTeam).team).toBe('team-1');
    expect(changesOf(inTeam, { ...fieldsOf(inTeam), team: '' }, new Date(short.expireAt!))).toEqual(
      {},
    );
  });

  it('sends nothing for an untouched form', () => {
    expect(changesOf(short, fieldsOf(short), new Date(short.expireAt!))).toEqual({});
  });

  it('sends only the changed fields; cleared fields as null', () => {
    const f = {
      ...fieldsOf(short),
      url: ' https://example.org/b ',
      expireAt: '',
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
    expect(changesOf(short, { ...fieldsOf(short), expireAt: 'in 2 Jahren' }, when)).toEqual({
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

  it('never sends a url the server did not show', () => {
    const hidden = { ...short, url: null } as Short;
    expect(changesOf(hidden, fieldsOf(hidden), new Date(short.expireAt!))).toEqual({});
  });

  it('maps edit errors to German by errorKey, by the field key, else the general text', () => {
    const problem = (body: object, status = 400) =>
      new ApiError(status, { type: 'about:blank', title: 'x', status, ...body } as never);
    const other = 'Der Short konnte nicht gespeichert werden';
    expect(
      errorText(problem({ detail: 'Code already exists', errorKey: 'code_exists' }, 409), other),
    ).toBe('Der Code ist bereits vergeben');
    expect(
      errorText(
        problem({
          detail: 'Validation failed',
          errorKey: 'validation_failed',
          fieldErrors: { url: 'bad' },
          fieldErrorKeys: { url: 'url_invalid' },
        }),
        other,
      ),
    ).toBe('Die URL ist ungültig');
    expect(
      errorText(problem({ errorKey: 'not_owner', detail: 'Only the owner' }, 403), other),
    ).toBe('Das darf nur der Besitzer des Shorts oder ein Admin.');
    expect(errorText(problem({ detail: 'toString', errorKey: 'bad_request' }), other)).toBe(other);
    expect(errorText(new Error('x'), other)).toBe(other);
  });
});

describe('uses and visits', () => {
  it("uses read '3 / 10' with a limit, the number alone without; nothing when not shown", () => {
    expect(usesText({ uses: 3, maxUses: 10 })).toBe('3 / 10');
    expect(usesText({ uses: 1234, maxUses: null })).toBe('1.234');
    expect(usesText({ maxUses: 10 })).toBeUndefined();
  });
});

describe('import', () => {
  it('maps the columns of the peers like the server; the first column of a field wins', () => {
    expect(mapColumns(['shortCode', 'longUrl', 'title', 'tags', 'url'])).toEqual([
      ['shortCode', 'code'],
      ['longUrl', 'url'],
      ['title', 'name'],
      ['tags', 'tags'],
      ['url', null],
    ]);
    expect(mapColumns(['Long URL', 'keyword', 'validUntil', 'maxVisits'])).toEqual([
      ['Long URL', 'url'],
      ['keyword', 'code'],
      ['validUntil', 'expireAt'],
      ['maxVisits', 'maxUses'],
    ]);
    expect(mapColumns(['url', 'url'])).toEqual([
      ['url', 'url'],
      ['url', null],
    ]);
    expect(urlColumnNames()).toBe('url, longUrl, long_url, target oder long_link');
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

  it('refuses what the server would refuse: too many rows or columns (the shared limits)', () => {
    const row = { url: 'https://a.example' };
    expect(importRefusal({ headers: ['url'], rows: Array(MAX_IMPORT_ROWS).fill(row) })).toBeNull();
    expect(importRefusal({ headers: ['url'], rows: Array(MAX_IMPORT_ROWS + 1).fill(row) })).toBe(
      `Es können höchstens ${MAX_IMPORT_ROWS} Zeilen auf einmal importiert werden.`,
    );
    const headers = Array.from({ length: MAX_IMPORT_COLUMNS + 1 }, (_, i) => `c${i}`);
    expect(importRefusal({ headers, rows: [row] })).toBe(
      `Eine Datei darf höchstens ${MAX_IMPORT_COLUMNS} Spalten haben.`,
    );
  });

  it('gives skipped rows German reasons by errorKey and writes them as CSV with formulas escaped', () => {
    const row = (errorKey: string, reason: string) =>
      ({ errorKey, reason }) as Parameters<typeof skippedReason>[0];
    expect(skippedReason(row('code_exists', 'Code already exists'))).toBe(
      'Der Code ist bereits vergeben',
    );
    expect(skippedReason(row('url_missing', 'url: missing'))).toBe('Die URL fehlt');
    expect(skippedReason(row('url_invalid', 'url: must be an absolute http(s) URL'))).toBe(
      'Die URL ist ungültig',
    );
    expect(skippedReason(row('expire_invalid', 'expireAt: not a date'))).toBe(
      'Das Ablaufdatum ist ungültig',
    );
    // A key this client does not know yet (a newer server): the general text with the reason.
    expect(skippedReason(row('something_new', 'something new'))).toBe(
      'Die Zeile wurde nicht übernommen (something new)',
    );
    expect(
      skippedCsv([
        { row: 2, code: '=evil', reason: 'URL is blacklisted', errorKey: 'url_blacklisted' },
        { row: 3, code: "'=x", reason: 'Code already exists', errorKey: 'code_exists' },
      ]),
    ).toBe(
      "Zeile,Code,Grund\r\n2,'=evil,Der Link ist auf der Blacklist. Du darfst auf ihn nicht verlinken\r\n3,''=x,Der Code ist bereits vergeben\r\n",
    );
  });
});
