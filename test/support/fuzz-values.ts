import fc from 'fast-check';
import type { FuzzOperation, FuzzParam, Schema } from './fuzz-spec';

/**
 * fast-check arbitraries for the API fuzz: hostile strings and numbers, values shaped by an
 * OpenAPI schema and then broken (wrong types, missing and extra fields, arrays for objects), raw
 * bodies that are not JSON at all, and the content types a client might send.
 *
 * Values that name things the server holds (a short's code, a user's id) are generated as
 * `Known` references and resolved when the request is sent, so a run stays reproducible from
 * its seed while the fixture behind it can be rebuilt.
 */

/** A reference to a value of the fuzz fixture (see FuzzWorld.slots), resolved at send time. */
export class Known {
  constructor(readonly slot: string) {}
  toString(): string {
    return `<${this.slot}>`;
  }
}

/** The slots every fixture provides (FuzzWorld fills them). */
export const SLOTS = [
  'userShort.code',
  'userShort.id',
  'pwShort.code',
  'pwShort.id',
  'anonShort.code',
  'anonShort.id',
  'adminShort.code',
  'adminShort.id',
  'limitedShort.code',
  'limitedShort.id',
  'user.id',
  'admin.id',
  'apikey.id',
  'report.id',
  'blacklist.id',
  'password',
  'apikey',
  'adminApikey',
] as const;
export type Slot = (typeof SLOTS)[number];

export type ParamValue = string | Known;

const CONTROL = Array.from({ length: 32 }, (_, i) => String.fromCharCode(i)).concat(['\u007f']);

/** Strings that broke parsers, validators, databases and routers somewhere before. */
export const HOSTILE_STRINGS: readonly string[] = [
  '',
  ' ',
  '\t',
  '\r\n',
  '\u0000',
  'a\u0000b',
  '%00',
  'a%00b',
  '%',
  '%zz',
  '%u0000',
  '%C0%AE%C0%AE/',
  '%252e%252e%252f',
  '.',
  '..',
  '../',
  '../../../../etc/passwd',
  '..%2F..%2F..%2Fetc%2Fpasswd',
  '..\\..\\windows\\win.ini',
  '/',
  '//',
  '~',
  'x'.repeat(5000),
  'é'.repeat(2100),
  '😀'.repeat(600),
  '\ud800',
  '\udfff',
  'a\ud83d',
  '\u202eevil',
  '\ufeffbom',
  'zero\u200bwidth',
  'İstanbul',
  'ß',
  'ǅ',
  '\u0301',
  '𝕏𝕐',
  "' OR '1'='1",
  '"; DROP TABLE shorts; --',
  '`id`',
  '\\',
  '${7*7}',
  '{{7*7}}',
  '<script>alert(1)</script>',
  '=cmd|" /C calc"!A0',
  '+1',
  '-1',
  '0',
  '-0',
  '1.5',
  '1e309',
  'NaN',
  'Infinity',
  '9007199254740993',
  '2147483648',
  '-2147483649',
  '99999999999999999999999999',
  '0x10',
  'true',
  'false',
  'null',
  'undefined',
  '[]',
  '{}',
  '__proto__',
  'constructor',
  'prototype',
  'hasOwnProperty',
  '1970-01-01T00:00:00Z',
  '0000-00-00',
  '0999-12-31T23:59:59Z',
  '9999-12-31T23:59:59.999Z',
  '10000-01-01T00:00:00Z',
  '+275760-09-13T00:00:00.000Z',
  '-271821-04-20T00:00:00.000Z',
  '2024-02-30T00:00:00Z',
  '2999-01-01T00:00:00+14:00',
  '*',
  '**',
  '?',
  ':',
  'field:',
  'AND',
  'OR NOT',
  '(',
  ')',
  '[a TO',
  '"unterminated',
  'code:*',
  'uses:>5',
  'createdAt:[2020 TO *]',
  'url:/.*/',
  'ROLE_ADMIN',
  'ROLE_USER',
  'ROOT',
  'TRACE',
  'api',
  'export',
  'import',
  'login',
  'admin',
  's',
  'NUL',
  'asc',
  'desc',
  'code,asc',
  'code,desc,extra',
  'nonexistent,asc',
  'createdAt,DESC',
];

/** Target URLs, valid and hostile. */
const HOSTILE_URLS: readonly string[] = [
  'https://example.com/',
  'http://example.com/path?q=1#frag',
  'https://example.com/' + 'a'.repeat(2030),
  'https://example.com/' + 'a'.repeat(2100),
  'javascript:alert(1)',
  'data:text/html,<script>alert(1)</script>',
  'file:///etc/passwd',
  'ftp://example.com/',
  'http://user:pass@example.com/',
  'https://www.paypal.com@evil.example/',
  'http://localhost/',
  'http://127.0.0.1:8080/',
  'http://[::1]/',
  'http://0x7f.1/',
  'http://2130706433/',
  'https://exa mple.com/',
  'https://example.com/\u0000',
  'https://example.com\u0000.evil/',
  'https://例え.jp/パス?q=ü',
  'https://xn--r8jz45g.jp/',
  'http://example.com:99999/',
  'http://example.com:0/',
  'HTTPS://EXAMPLE.COM/UPPER',
  'https://',
  'https:/example.com',
  '//example.com/',
  'example.com',
  'https://evil.example#@good.example',
  'https://example.com/\u202e',
  'https://example.com/%00',
  'https://a.b/' + '😀'.repeat(500),
  'https://blacklisted.fuzz.test/',
];

const NUMBERS: readonly number[] = [
  0,
  -0,
  1,
  -1,
  2,
  0.5,
  1.5,
  100,
  2147483647,
  2147483648,
  -2147483648,
  -2147483649,
  4294967296,
  Number.MAX_SAFE_INTEGER,
  Number.MAX_SAFE_INTEGER + 2,
  1e21,
  1e308,
  Number.MAX_VALUE,
  Number.MIN_VALUE,
  -1e308,
];

/** Number literals JSON.stringify cannot write (sent inside raw bodies). */
const RAW_NUMBERS: readonly string[] = [
  '1e999',
  '-1e999',
  '123456789012345678901234567890',
  '0.0000000000000000000000000000001',
  '-0',
  '1E+2',
  '00012',
];

export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...HOSTILE_STRINGS) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 30 }) },
  { weight: 1, arbitrary: fc.string({ unit: fc.constantFrom(...CONTROL), maxLength: 8 }) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom('x', 'é', '😀', '%00', '../'), fc.integer({ min: 60, max: 5000 }))
      .map(([s, n]) => s.repeat(Math.ceil(n / s.length)).slice(0, n)),
  },
);

const hostileNumber: fc.Arbitrary<number> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...NUMBERS) },
  { weight: 1, arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }) },
  { weight: 1, arbitrary: fc.integer() },
);

const urlValue: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...HOSTILE_URLS) },
  {
    weight: 3,
    arbitrary: fc.webUrl({
      validSchemes: ['http', 'https'],
      withQueryParameters: true,
      withFragments: true,
    }),
  },
  { weight: 1, arbitrary: hostileString },
);

/** Targets a well-behaved client sends. */
const cleanUrl: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('https://example.com/', 'https://example.org/a/b?c=d#e', 'http://example.net/x'),
  fc.webUrl({ validSchemes: ['https'], withQueryParameters: true }).filter((u) => u.length <= 2048),
);

const dateValue: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.integer({ min: 1, max: 400 * 24 }).map((h) => future(h)) },
  {
    weight: 2,
    arbitrary: fc
      .date({ min: new Date(-8.64e15), max: new Date(8.64e15), noInvalidDate: true })
      .map((d) => d.toISOString()),
  },
  { weight: 2, arbitrary: hostileString },
);

function future(hours: number): string {
  return new Date(Date.now() + hours * 3_600_000).toISOString();
}

/** Wrong types for any place in a JSON document. */
export const wrongType: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  hostileNumber,
  fc.constant([]),
  fc.constant({}),
  fc.array(hostileString, { maxLength: 3 }),
  fc.dictionary(hostileString, hostileString, { maxKeys: 3 }),
  fc.constant(Array.from({ length: 1000 }, (_, i) => i)),
  fc.constant(JSON.parse('['.repeat(31) + ']'.repeat(31)) as unknown),
  fc.constant(Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`k${i}`, i]))),
);

export const anyHostile: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: hostileString },
  { weight: 2, arbitrary: wrongType },
  { weight: 1, arbitrary: urlValue },
  { weight: 1, arbitrary: dateValue },
);

/** The fixture's shorts by id. */
const SHORT_ID_SLOTS = SLOTS.filter((s) => s.endsWith('Short.id'));

const knownValue: fc.Arbitrary<Known> = fc.constantFrom(...SLOTS).map((s) => new Known(s));

/**
 * A value shaped by `schema`. `clean`: what a well-behaved client sends (valid types, bounds,
 * patterns and enums); else mostly that, with hostile values mixed in at every level.
 */
export function fromSchema(
  schema: Schema,
  name = '',
  keys: readonly string[] = [],
  clean = false,
): fc.Arbitrary<unknown> {
  return shaped(schema, name, keys, 3, clean);
}

function shaped(
  schema: Schema,
  name: string,
  keys: readonly string[],
  depth: number,
  clean: boolean,
): fc.Arbitrary<unknown> {
  const inner = pickType(schema, name, keys, depth, clean);
  return schema.nullable === true
    ? fc.oneof({ weight: 4, arbitrary: inner }, { weight: 1, arbitrary: fc.constant(null) })
    : inner;
}

function pickType(
  schema: Schema,
  name: string,
  keys: readonly string[],
  depth: number,
  clean: boolean,
): fc.Arbitrary<unknown> {
  if (Array.isArray(schema.enum) && schema.enum.length > 0) {
    const values = schema.enum as unknown[];
    if (clean) return fc.constantFrom(...values);
    return fc.oneof(
      { weight: 6, arbitrary: fc.constantFrom(...values) },
      {
        weight: 1,
        arbitrary: fc
          .constantFrom(...values)
          .map((v) => (typeof v === 'string' ? v.toLowerCase() : v)),
      },
      { weight: 1, arbitrary: hostileString },
    );
  }
  for (const key of ['allOf', 'anyOf', 'oneOf']) {
    const members = schema[key];
    if (Array.isArray(members) && members.length > 0) {
      return fc.oneof(...members.map((m) => shaped(m as Schema, name, keys, depth, clean)));
    }
  }
  const type = schema.type as string | undefined;
  if (type === 'object' || (type === undefined && schema.properties)) {
    return objectOf(schema, keys, depth, clean);
  }
  if (type === 'array') {
    const items = (schema.items as Schema | undefined) ?? {};
    if (clean && name === 'ids' && items.format === 'uuid') {
      // Shorts a caller names by id (a bulk edit): the fixture's, each once.
      return fc.uniqueArray(
        fc.constantFrom(...SHORT_ID_SLOTS).map((s) => new Known(s)),
        {
          minLength: 1,
          maxLength: 3,
          selector: (k) => k.slot,
        },
      );
    }
    return fc.array(shaped(items, name, keys, depth - 1, clean), { maxLength: 4 });
  }
  if (type === 'integer' || type === 'number') {
    const min = typeof schema.minimum === 'number' ? schema.minimum : -1000;
    const max = typeof schema.maximum === 'number' ? schema.maximum : 1_000_000;
    const inRange = fc.integer({ min: Math.max(min, -1e9), max: Math.min(max, 1e9) });
    if (clean) return inRange;
    return fc.oneof(
      { weight: 4, arbitrary: inRange },
      { weight: 2, arbitrary: fc.constantFrom(min, max, min - 1, max + 1) },
      { weight: 1, arbitrary: hostileNumber },
    );
  }
  if (type === 'boolean') return fc.boolean();
  if (type === 'string' || type === undefined) {
    return clean ? cleanString(schema, name) : stringFor(schema, name);
  }
  return clean ? fc.string() : anyHostile;
}

/** CSV text with a header row of column names a CSV property might expect (e.g. an import). */
function csvOf(cell: fc.Arbitrary<string>): fc.Arbitrary<string> {
  const columns = fc.uniqueArray(
    fc.constantFrom('url', 'code', 'name', 'expireAt', 'maxUses', 'longUrl', 'shortCode', 'title'),
    { minLength: 1, maxLength: 4 },
  );
  return columns.chain((cols) =>
    fc
      .array(fc.tuple(...cols.map((c) => (c === 'url' || c === 'longUrl' ? cleanUrl : cell))), {
        maxLength: 4,
      })
      .chain((rows) =>
        fc
          .constantFrom(',', ';')
          .map((sep) =>
            [cols, ...rows]
              .map((r) =>
                r.map((v) => (/[",;\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v)).join(sep),
              )
              .join('\n'),
          ),
      ),
  );
}

function cleanString(schema: Schema, name: string): fc.Arbitrary<string> {
  if (/csv/i.test(name)) return csvOf(fc.string({ maxLength: 20 }));
  // Tags (a list's items carry its name): valid ones, spellings of one tag among them.
  if (/^tags$|Tags$/.test(name))
    return fc.constantFrom('Herbst', 'herbst', 'Kampagne 2026', 'Über-Sale');
  if (/url|link|target/i.test(name) || schema.format === 'uri') return cleanUrl;
  if (schema.format === 'date-time' || /(At|Date)$/.test(name)) {
    return fc.oneof(
      { weight: 4, arbitrary: fc.integer({ min: 1, max: 400 * 24 }).map((h) => future(h)) },
      {
        weight: 1,
        arbitrary: fc.constantFrom(
          '9999-12-31T23:59:59.999Z',
          '9999-12-31T23:59:59+00:00',
          '5000-01-01T00:00:00+14:00',
          '2100-02-29T00:00:00Z',
          '2999-12-31',
        ),
      },
    );
  }
  if (schema.format === 'uuid') return fc.uuid();
  if (typeof schema.pattern === 'string') {
    try {
      return fc.stringMatching(new RegExp(schema.pattern));
    } catch {
      // a pattern JavaScript cannot compile: fall through
    }
  }
  if (typeof schema.example === 'string') return fc.constant(schema.example);
  const maxLength = typeof schema.maxLength === 'number' ? schema.maxLength : 60;
  const minLength = typeof schema.minLength === 'number' ? schema.minLength : 0;
  const fits = (v: string) => [...v].length >= minLength && v.length <= maxLength;
  return fc.oneof(
    {
      weight: 3,
      arbitrary: fc.string({ minLength, maxLength: Math.max(minLength, Math.min(maxLength, 60)) }),
    },
    // Valid by the schema, and still odd for a database: unicode, control characters, lone
    // surrogates, exactly the longest length in 1-, 2- and 4-byte characters.
    { weight: 1, arbitrary: fc.constantFrom(...NASTY_VALID).filter(fits) },
    {
      weight: 1,
      arbitrary: fc
        .string({ unit: 'binary', minLength, maxLength: Math.min(maxLength, 40) })
        .filter((v) => !v.includes('\u0000') && fits(v)),
    },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom('x', 'ü', '😀', '\u202e', ' ')
        .map((c) => c.repeat(Math.max(1, Math.floor(maxLength / c.length)))),
    },
  );
}

/** Strings a validator lets through that a database, a log line or a CSV may still choke on. */
const NASTY_VALID: readonly string[] = [
  'é',
  '😀',
  'İı',
  '\ud800',
  'a\udfffb',
  '\u202egnp.exe',
  '\ufeff',
  '\t\r\n',
  '\u0001\u001f\u007f',
  "O'Brien; DROP TABLE shorts",
  '%',
  '_',
  '\\',
  '=1+1',
  '<b>x</b>',
  '   ',
  '💩'.repeat(25),
];

function stringFor(schema: Schema, name: string): fc.Arbitrary<string> {
  const options: Array<{ weight: number; arbitrary: fc.Arbitrary<string> }> = [];
  if (/csv/i.test(name)) {
    options.push({
      weight: 8,
      arbitrary: csvOf(fc.oneof(fc.string({ maxLength: 20 }), hostileString)),
    });
  }
  if (/url|link|target/i.test(name) || schema.format === 'uri') {
    options.push({ weight: 6, arbitrary: urlValue });
  }
  if (schema.format === 'date-time' || /(At|Date)$/.test(name)) {
    options.push({ weight: 6, arbitrary: dateValue });
  }
  if (schema.format === 'uuid') options.push({ weight: 4, arbitrary: fc.uuid() });
  if (typeof schema.pattern === 'string') {
    try {
      options.push({ weight: 5, arbitrary: fc.stringMatching(new RegExp(schema.pattern)) });
    } catch {
      // a pattern JavaScript cannot compile: hostile strings only
    }
  }
  if (typeof schema.example === 'string') {
    options.push({ weight: 2, arbitrary: fc.constant(schema.example) });
  }
  const maxLength = typeof schema.maxLength === 'number' ? schema.maxLength : 200;
  const minLength = typeof schema.minLength === 'number' ? schema.minLength : 0;
  options.push(
    {
      weight: 3,
      arbitrary: fc.string({ minLength, maxLength: Math.max(minLength, Math.min(maxLength, 60)) }),
    },
    // At the documented bounds and just past them.
    {
      weight: 2,
      arbitrary: fc
        .constantFrom(minLength, Math.max(0, minLength - 1), maxLength, maxLength + 1)
        .chain((n) =>
          fc.constantFrom('x', 'ü', '😀').map((c) => c.repeat(Math.ceil(n / c.length)).slice(0, n)),
        ),
    },
    { weight: 4, arbitrary: hostileString },
  );
  return fc.oneof(...options);
}

function objectOf(
  schema: Schema,
  keys: readonly string[],
  depth: number,
  clean: boolean,
): fc.Arbitrary<unknown> {
  const props = (schema.properties ?? {}) as Record<string, Schema>;
  const names = Object.keys(props);
  if (names.length === 0 || depth <= 0) {
    // Free-form object (e.g. an admin edit): plausible keys with plausible and hostile values.
    const pool = keys.length > 0 ? keys : ['value'];
    const plausible = fc.oneof(
      fc.boolean(),
      fc.constant(null),
      fc.integer({ min: 1, max: 100 }),
      fc.integer({ min: 1, max: 400 * 24 }).map((h) => future(h)),
      fc.constantFrom('ROLE_USER', 'ROLE_ADMIN', 'host', 'regex', 'open', 'dismissed', 'SPAM'),
      fc.constantFrom(['ROLE_USER'], ['ROLE_USER', 'ROLE_ADMIN']),
      fc.string({ maxLength: 30 }),
    );
    return fc.dictionary(
      clean
        ? fc.constantFrom(...pool)
        : fc.oneof(
            { weight: 5, arbitrary: fc.constantFrom(...pool) },
            { weight: 1, arbitrary: hostileString },
          ),
      clean
        ? plausible
        : fc.oneof(
            { weight: 3, arbitrary: plausible },
            { weight: 1, arbitrary: urlValue },
            { weight: 2, arbitrary: anyHostile },
          ),
      { maxKeys: 3 },
    );
  }
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  // A clean request works in the caller's own space: a `team` would name a team the fixture does
  // not keep (any team id is refused with 403 team_forbidden); hostile requests still send one.
  const sent = clean ? names.filter((n) => n !== 'team' || required.includes(n)) : names;
  return fc.record(
    Object.fromEntries(sent.map((n) => [n, shaped(props[n], n, keys, depth - 1, clean)])),
    { requiredKeys: required.filter((r) => sent.includes(r)) },
  );
}

/** A body: JSON from the schema (intact or broken), raw text, bytes, or nothing. */
export type FuzzBody =
  | { kind: 'none' }
  | { kind: 'json'; value: unknown }
  | { kind: 'raw'; text: string }
  | { kind: 'bytes'; bytes: Uint8Array };

/** One property of a valid-looking object replaced, removed or added. */
function broken(valid: fc.Arbitrary<unknown>, keys: readonly string[]): fc.Arbitrary<unknown> {
  return fc
    .tuple(
      valid,
      fc.nat(),
      anyHostile,
      fc.constantFrom('replace', 'remove', 'add'),
      fc.constantFrom(
        ...(keys.length ? keys : ['extra']),
        'extra',
        'isAdmin',
        'ownerId',
        'id',
        'uses',
        'roles',
      ),
    )
    .map(([v, index, bad, how, extraKey]) => {
      if (!v || typeof v !== 'object' || Array.isArray(v)) return bad;
      const o = { ...(v as Record<string, unknown>) };
      const names = Object.keys(o);
      if (how === 'add' || names.length === 0) {
        o[extraKey] = bad;
        return o;
      }
      const key = names[index % names.length];
      if (how === 'remove') delete o[key];
      else o[key] = bad;
      return o;
    });
}

const RAW_BODIES: readonly string[] = [
  '',
  '{',
  '{"url":',
  'null',
  'true',
  '"string"',
  '[]',
  '[{}]',
  '\ufeff{}',
  '{}garbage',
  '{"url":"https://example.com/a"}{"url":"https://example.com/b"}',
  '{"__proto__":{"isAdmin":true}}',
  '{"constructor":{"prototype":{"x":1}}}',
  '{"url":"https://example.com/dup","url":"javascript:alert(1)"}',
  '{"url":"https://example.com/x","password":"\\ud800"}',
  '{"url":"https://example.com/x","name":"\\u0000"}',
  '{"a":' + '['.repeat(33) + ']'.repeat(33) + '}',
  '{"url":"' + 'x'.repeat(17 * 1024) + '"}',
  "{'url': 'single quotes'}",
  '{"url":"https://example.com/x",}',
  '\u0000',
];

export function bodyFor(op: FuzzOperation, keys: readonly string[]): fc.Arbitrary<FuzzBody> {
  const schema = op.body ?? { type: 'object' };
  const valid = fromSchema(schema, '', keys);
  const rawNumbers = fc
    .tuple(fc.constantFrom(...(keys.length ? keys : ['value'])), fc.constantFrom(...RAW_NUMBERS))
    .map(([k, n]) => `{"url":"https://example.com/n",${JSON.stringify(k)}:${n}}`);
  const options: Array<{ weight: number; arbitrary: fc.Arbitrary<FuzzBody> }> = [
    {
      weight: op.body ? 4 : 1,
      arbitrary: valid.map((value) => ({ kind: 'json' as const, value })),
    },
    {
      weight: op.body ? 5 : 1,
      arbitrary: broken(valid, keys).map((value) => ({ kind: 'json' as const, value })),
    },
    { weight: 1, arbitrary: valid.map((value) => ({ kind: 'json' as const, value: [value] })) },
    { weight: 1, arbitrary: anyHostile.map((value) => ({ kind: 'json' as const, value })) },
    {
      weight: 2,
      arbitrary: fc
        .oneof(fc.constantFrom(...RAW_BODIES), rawNumbers)
        .map((text) => ({ kind: 'raw' as const, text })),
    },
    {
      weight: 1,
      arbitrary: fc
        .uint8Array({ maxLength: 64 })
        .map((bytes) => ({ kind: 'bytes' as const, bytes })),
    },
    { weight: op.body ? 1 : 6, arbitrary: fc.constant({ kind: 'none' as const }) },
  ];
  return fc.oneof(...options);
}

/** The body a well-behaved client sends: schema-valid JSON, or none when the operation takes none. */
export function cleanBodyFor(op: FuzzOperation, keys: readonly string[]): fc.Arbitrary<FuzzBody> {
  if (!op.body) return fc.constant({ kind: 'none' as const });
  return fromSchema(op.body, '', keys, true).map((value) => ({ kind: 'json' as const, value }));
}

export const contentType: fc.Arbitrary<string | undefined> = fc.oneof(
  { weight: 12, arbitrary: fc.constant('application/json') },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      undefined,
      'application/json; charset=utf-8',
      'APPLICATION/JSON',
      'application/merge-patch+json',
      'application/json; charset=latin1',
      'application/json; charset=utf-16',
      'text/plain',
      'text/html',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/xml',
      'application/octet-stream',
      '',
      'application/json, text/plain',
      '*/*',
    ),
  },
);

/** A path parameter: a fixture value, a value shaped by its schema, or a hostile one. */
export function pathValue(param: FuzzParam, clean = false): fc.Arbitrary<ParamValue> {
  if (clean) {
    if (Array.isArray(param.schema.enum))
      return fc.constantFrom(...(param.schema.enum as string[]));
    return fc.oneof(
      { weight: 4, arbitrary: knownValue },
      { weight: 1, arbitrary: cleanString(param.schema, param.name) },
    );
  }
  return fc.oneof(
    { weight: 5, arbitrary: knownValue },
    { weight: 2, arbitrary: stringFor(param.schema, param.name) },
    { weight: 4, arbitrary: hostileString },
  );
}

/** A query or header value: absent (undefined), from the schema, a fixture value, or hostile. */
export function queryValue(
  param: FuzzParam,
  clean = false,
): fc.Arbitrary<ParamValue[] | undefined> {
  const schema =
    param.schema.type === 'array' ? ((param.schema.items as Schema) ?? {}) : param.schema;
  const shapedValue = fromSchema(schema, param.name, [], clean).map((v) =>
    typeof v === 'string' ? v : (JSON.stringify(v) ?? ''),
  );
  const one: fc.Arbitrary<ParamValue> = clean
    ? fc.oneof({ weight: 4, arbitrary: shapedValue }, { weight: 1, arbitrary: knownValue })
    : fc.oneof(
        { weight: 4, arbitrary: shapedValue },
        { weight: 1, arbitrary: knownValue },
        { weight: 3, arbitrary: hostileString },
      );
  return fc.oneof(
    { weight: 3, arbitrary: fc.constant(undefined) },
    { weight: 4, arbitrary: one.map((v) => [v]) },
    { weight: 1, arbitrary: fc.array(one, { minLength: 2, maxLength: clean ? 2 : 4 }) },
  );
}

/** Query parameters nobody documented (some are refused on purpose, e.g. keys). */
export const extraQuery: fc.Arbitrary<Array<[string, string]>> = fc.oneof(
  { weight: 3, arbitrary: fc.constant<Array<[string, string]>>([]) },
  {
    weight: 1,
    arbitrary: fc.array(
      fc.tuple(
        fc.oneof(
          fc.constantFrom(
            'api_key',
            'access_token',
            'redirect',
            'password',
            '__proto__',
            'sort',
            'page',
            'size',
            'format',
            'x',
          ),
          hostileString,
        ),
        hostileString,
      ),
      { minLength: 1, maxLength: 2 },
    ),
  },
);

/** How a path parameter is put into the URL: percent-encoded, or as raw as HTTP allows. */
export const pathEncoding = fc.constantFrom('encoded', 'encoded', 'raw' as const) as fc.Arbitrary<
  'encoded' | 'raw'
>;

/** Percent-encodes what a cookie value cannot hold (lone surrogates become U+FFFD, as in UTF-8). */
function cookieValue(v: string): string {
  return [...Buffer.from(v, 'utf8')]
    .map((b) =>
      b > 0x20 && b < 0x7f && b !== 0x3b && b !== 0x2c && b !== 0x25 && b !== 0x22 && b !== 0x5c
        ? String.fromCharCode(b)
        : `%${b.toString(16).toUpperCase().padStart(2, '0')}`,
    )
    .join('');
}

/** Headers nobody documented, with plausible and hostile values. */
export const extraHeaders: fc.Arbitrary<Array<[string, string]>> = fc.oneof(
  { weight: 4, arbitrary: fc.constant<Array<[string, string]>>([]) },
  {
    weight: 1,
    arbitrary: fc.array(
      fc.oneof(
        fc.tuple(
          fc.constant('cookie'),
          fc.oneof(
            hostileString.map((v) => `url_shorter_session=${cookieValue(v.slice(0, 300))}`),
            fc.constantFrom(
              'url_shorter_session=s%3Aforged.signature',
              'url_shorter_session=',
              '=;;=',
            ),
          ),
        ),
        fc.tuple(
          fc.constant('content-encoding'),
          fc.constantFrom('gzip', 'deflate', 'br', 'identity', 'x-unknown', 'gzip, gzip'),
        ),
        fc.tuple(
          fc.constantFrom('x-forwarded-for', 'x-forwarded-proto', 'x-forwarded-host', 'forwarded'),
          fc.oneof(
            fc.constantFrom('127.0.0.1', '::1', 'unknown', '1.2.3.4, 10.0.0.1', 'http'),
            hostileString,
          ),
        ),
        fc.tuple(
          fc.constantFrom('origin', 'sec-fetch-site', 'referer'),
          fc.oneof(
            fc.constantFrom('null', 'https://evil.example', 'same-origin', 'cross-site'),
            hostileString,
          ),
        ),
        fc.tuple(
          fc.constantFrom(
            'if-none-match',
            'if-modified-since',
            'range',
            'user-agent',
            'x-request-id',
          ),
          hostileString,
        ),
      ),
      { minLength: 1, maxLength: 3 },
    ),
  },
);

/** One body of the null sweep: a well-formed body with a JSON null at `path`. */
export interface NullPlacement {
  /** Where the null is, e.g. `csv`, `rules[0].url`. */
  path: string;
  /** The top-level property it is in (the key `fieldErrors` names). */
  field: string;
  /** Whether the schema allows null there. */
  nullable: boolean;
  value: Record<string, unknown>;
}

function propertiesOf(schema: Schema | undefined): Record<string, Schema> {
  if (!schema) return {};
  const own = (schema.properties ?? {}) as Record<string, Schema>;
  const merged = { ...own };
  for (const key of ['allOf', 'anyOf', 'oneOf'])
    for (const m of (schema[key] as Schema[] | undefined) ?? [])
      Object.assign(merged, propertiesOf(m));
  return merged;
}

/** Does a body schema declare fields (not only a free-form map)? */
export function hasFields(schema: Schema): boolean {
  return Object.keys(propertiesOf(schema)).length > 0;
}

/**
 * A JSON null in each field of a body schema, one at a time (issue 37: `{"csv": null}` answered
 * 500): every top-level property, and every property of the objects inside them (an object, or
 * the first item of an array of objects), two levels deep. `base` is a well-formed body (a clean
 * sample); a container it lacks is taken from a clean sample of that property's schema. A
 * top-level null is also sent alone (`{"csv": null}`).
 */
export function nullPlacements(
  schema: Schema,
  base: unknown,
  keys: readonly string[],
  seed: number,
): NullPlacement[] {
  const top = base && typeof base === 'object' && !Array.isArray(base) ? base : {};
  const out: NullPlacement[] = [];
  const clone = (v: unknown) => structuredClone(v) as Record<string, unknown>;
  const visit = (
    props: Record<string, Schema>,
    set: (name: string, v: unknown) => Record<string, unknown>,
    get: (name: string) => unknown,
    prefix: string,
    field: string | null,
    depth: number,
  ): void => {
    for (const [name, prop] of Object.entries(props)) {
      const path = prefix ? `${prefix}.${name}` : name;
      const f = field ?? name;
      out.push({ path, field: f, nullable: prop.nullable === true, value: set(name, null) });
      if (!prefix && Object.keys(top).some((k) => k !== name))
        out.push({
          path: `${name} (alone)`,
          field: f,
          nullable: prop.nullable === true,
          value: { [name]: null },
        });
      if (depth <= 0) continue;
      const isArray = prop.type === 'array';
      const inner = isArray ? (prop.items as Schema | undefined) : prop;
      const innerProps = propertiesOf(inner);
      if (Object.keys(innerProps).length === 0) continue;
      let container = get(name);
      const usable = (v: unknown) =>
        isArray
          ? Array.isArray(v) && v.length > 0 && v[0] && typeof v[0] === 'object'
          : v && typeof v === 'object' && !Array.isArray(v);
      if (!usable(container)) {
        container = fc
          .sample(fromSchema(prop, name, keys, true), { seed, numRuns: 20 })
          .find(usable);
        if (container === undefined) continue;
      }
      const c = container;
      const member = (): Record<string, unknown> =>
        isArray ? clone((c as unknown[])[0]) : clone(c);
      const rebuild = (m: Record<string, unknown>) =>
        isArray ? [m, ...((c as unknown[]).slice(1) as unknown[])] : m;
      visit(
        innerProps,
        (n, v) => set(name, rebuild({ ...member(), [n]: v })),
        (n) => member()[n],
        isArray ? `${path}[0]` : path,
        f,
        depth - 1,
      );
    }
  };
  visit(
    propertiesOf(schema),
    (n, v) => ({ ...clone(top), [n]: v }),
    (n) => (top as Record<string, unknown>)[n],
    '',
    null,
    2,
  );
  return out;
}
