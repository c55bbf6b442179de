/**
 * The field table of a short: every field a caller may set, with what it is, its limits, who may
 * set it, how an import finds it and what its checks answer — the one declaration that the
 * server's DTOs, checks, import and export and the web client's form and import preview are
 * derived from (as configuration is derived from src/config/variables.ts). A new field is a row
 * here, its check in src/shorts/field-checks.ts (the compiler asks for it), and its column in a
 * migration; docs/adding-a-field.md walks through one.
 */
import type { ErrorKey, SpecificErrorKey } from './error-keys';
import type { RedirectRule } from './redirect-rules';
import {
  CODE_MAX_LENGTH,
  CODE_MIN_LENGTH,
  CUSTOM_CODE_PATTERN,
  INT_MAX,
  MAX_NAME_LENGTH,
  MAX_PASSWORD_LENGTH,
  MAX_URL_LENGTH,
} from './limits';

/**
 * What a field holds: decides its validation at the boundary, its OpenAPI schema, the web form's
 * input and how an import reads its cell.
 */
export type FieldType =
  'url' | 'code' | 'text' | 'password' | 'date-time' | 'integer' | 'domain' | 'rules';

/** Who may set a field: everybody (anonymous creates too), or logged-in users (and admins). */
export type SetBy = 'anonymous' | 'user';

/** A sentence the contract fixes for a field's problem, and its key. */
export interface FieldProblem {
  sentence: string;
  key: SpecificErrorKey;
}

export interface ShortFieldSpec {
  type: FieldType;
  /** The ShortEntity property it is stored in (`password` is stored as its hash). */
  column: string;
  setBy: SetBy;
  /** Needed on create; a needed field cannot be cleared. */
  required?: true;
  /** `null` clears the field on edit; on create, `null` counts as absent for every field. */
  nullable: boolean;
  /** What the column holds for "none", when not NULL (a domain: '' is this service's host). */
  none?: '';
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  /**
   * Column names an import recognises: ours first, then those of Shlink, YOURLS, Kutt and Bitly
   * (compared without case, spaces, `_` and `-`). Empty: never imported.
   */
  importAliases: readonly string[];
  /** A domain the caller may not use (403 instead of a field error). */
  forbidden?: FieldProblem;
  /** The key of a value of the wrong form (not text, not a date, null where it cannot be). */
  invalidKey: ErrorKey;
  /** The key of a text over maxLength (else invalidKey). */
  tooLongKey?: ErrorKey;
  /**
   * Answers the contract fixes as sentences (400 `detail`, not a field error): a blacklisted URL,
   * a date in the past, a number below the minimum.
   */
  blacklisted?: FieldProblem;
  past?: FieldProblem;
  belowMinimum?: FieldProblem;
  /** Every key the field's checks answer (fieldErrorKeys, import rows). */
  errorKeys: readonly ErrorKey[];
  description: string;
  example?: string | number;
}

export const SHORT_FIELDS = {
  url: {
    type: 'url',
    column: 'url',
    setBy: 'anonymous',
    required: true,
    nullable: false,
    minLength: 1,
    maxLength: MAX_URL_LENGTH,
    importAliases: ['url', 'longUrl', 'long_url', 'target', 'long_link'],
    invalidKey: 'url_invalid',
    blacklisted: { sentence: 'URL is blacklisted', key: 'url_blacklisted' },
    errorKeys: ['url_missing', 'url_invalid', 'url_self', 'url_blacklisted'],
    description: 'Absolute http(s) target URL',
    example: 'https://example.com/page',
  },
  password: {
    type: 'password',
    column: 'passwordHash',
    setBy: 'anonymous',
    nullable: true,
    maxLength: MAX_PASSWORD_LENGTH,
    importAliases: [],
    invalidKey: 'password_invalid',
    errorKeys: ['password_invalid'],
    description: 'Protects the short; on edit, null (or empty) removes the protection',
  },
  code: {
    type: 'code',
    column: 'code',
    setBy: 'user',
    nullable: false,
    minLength: CODE_MIN_LENGTH,
    maxLength: CODE_MAX_LENGTH,
    pattern: CUSTOM_CODE_PATTERN.source,
    importAliases: ['code', 'shortCode', 'keyword', 'address', 'custom_url'],
    invalidKey: 'code_invalid',
    errorKeys: ['code_invalid', 'code_reserved', 'code_exists'],
    description: 'Custom code (logged-in only; else one is generated)',
    example: 'summer-sale',
  },
  name: {
    type: 'text',
    column: 'name',
    setBy: 'user',
    nullable: true,
    maxLength: MAX_NAME_LENGTH,
    importAliases: ['name', 'title'],
    invalidKey: 'name_invalid',
    tooLongKey: 'name_too_long',
    errorKeys: ['name_invalid', 'name_too_long'],
    description: 'Name (logged-in only)',
  },
  expireAt: {
    type: 'date-time',
    column: 'expireAt',
    setBy: 'user',
    nullable: true,
    importAliases: ['expireAt', 'validUntil', 'expire_in', 'expires_at'],
    invalidKey: 'expire_invalid',
    past: { sentence: 'Expire At must be in the future', key: 'expire_past' },
    errorKeys: ['expire_invalid', 'expire_past'],
    description: 'Expiry (logged-in only; anonymous shorts expire after 24 h)',
  },
  maxUses: {
    type: 'integer',
    column: 'maxUses',
    setBy: 'user',
    nullable: true,
    minimum: 1,
    maximum: INT_MAX,
    importAliases: ['maxUses', 'maxVisits'],
    invalidKey: 'uses_invalid',
    belowMinimum: { sentence: 'Uses must be greater than 0', key: 'uses_min' },
    errorKeys: ['uses_invalid', 'uses_min'],
    description: 'Maximum uses (logged-in only)',
  },
  domain: {
    type: 'domain',
    column: 'domain',
    setBy: 'user',
    nullable: true,
    none: '',
    maxLength: 253,
    importAliases: ['domain'],
    invalidKey: 'domain_unknown',
    forbidden: { sentence: 'This domain may not be used by you', key: 'domain_forbidden' },
    errorKeys: ['domain_unknown', 'domain_forbidden'],
    description:
      'The own domain the short lives on (a shared one or the caller’s own); null: this service’s host',
    example: 'go.example.com',
  },
  expiredUrl: {
    type: 'url',
    column: 'expiredUrl',
    setBy: 'user',
    nullable: true,
    minLength: 1,
    maxLength: MAX_URL_LENGTH,
    importAliases: ['expiredUrl', 'expired_url'],
    invalidKey: 'url_invalid',
    blacklisted: { sentence: 'URL is blacklisted', key: 'url_blacklisted' },
    errorKeys: ['url_invalid', 'url_self', 'url_blacklisted'],
    description:
      'Where visitors go when the short has expired or its uses are exhausted, instead of the not-found page (logged-in only); null: the not-found page',
    example: 'https://example.com/offer-ended',
  },
  rules: {
    type: 'rules',
    column: 'rules',
    setBy: 'user',
    nullable: true,
    importAliases: ['rules'],
    invalidKey: 'rules_invalid',
    errorKeys: [
      'rules_invalid',
      'rules_too_many',
      'rule_condition_invalid',
      'rule_url_invalid',
      'url_self',
      'rule_url_blacklisted',
    ],
    description:
      'Redirect rules (logged-in only): at most 10 {conditions, url}, in order; a rule matches when all of its 1–5 conditions match, the first match wins, else `url`. Null or [] removes them. Imports and exports carry them as JSON text',
  },
} as const satisfies Record<string, ShortFieldSpec>;

export type ShortFieldName = keyof typeof SHORT_FIELDS;
export const SHORT_FIELD_NAMES = Object.keys(SHORT_FIELDS) as ShortFieldName[];

type ValueOf<T extends FieldType> = T extends 'integer'
  ? number
  : T extends 'rules'
    ? RedirectRule[]
    : string;

/**
 * A short's fields as a caller sends them (create, edit, an import row): absent fields stay as
 * they are; `null` clears a nullable field on edit and counts as absent on create.
 */
export type ShortInput = {
  [K in ShortFieldName]?: ValueOf<(typeof SHORT_FIELDS)[K]['type']> | null;
};

/** The fields an import reads (those with aliases). */
export type ImportField = {
  [K in ShortFieldName]: (typeof SHORT_FIELDS)[K]['importAliases'] extends readonly [] ? never : K;
}[ShortFieldName];

/** A column name as imports compare it: without case, spaces, `_` and `-`. */
export const importColumnKey = (name: string) => name.toLowerCase().replace(/[\s_-]+/g, '');

const IMPORT_ALIASES = new Map<string, ImportField>(
  SHORT_FIELD_NAMES.flatMap((field) =>
    SHORT_FIELDS[field].importAliases.map((alias) => [
      importColumnKey(alias),
      field as ImportField,
    ]),
  ),
);

/** The field an import column names, or undefined (unknown columns are ignored). */
export function importFieldOf(column: string): ImportField | undefined {
  return IMPORT_ALIASES.get(importColumnKey(column));
}

/** Which field each header names; the first column naming a field wins, the rest are ignored. */
export function mapImportColumns(headers: readonly string[]): Map<string, ImportField> {
  const mapping = new Map<string, ImportField>();
  const taken = new Set<ImportField>();
  for (const h of headers) {
    const field = importFieldOf(h);
    if (field && !taken.has(field)) {
      mapping.set(h, field);
      taken.add(field);
    }
  }
  return mapping;
}

/** The url column's names, for the message of an import without one. */
export const URL_COLUMN_NAMES = SHORT_FIELDS.url.importAliases;

/**
 * The export's columns in order: a short as the API shows it to its owner, with its uses and
 * visits (ExportedShortDto; the import reads back the ones with aliases).
 */
export const EXPORT_COLUMNS = [
  'id',
  'domain',
  'code',
  'name',
  'url',
  'hasPassword',
  'maxUses',
  'uses',
  'visits',
  'createdAt',
  'expireAt',
  'expiredUrl',
  'rules',
] as const;
export type ExportColumn = (typeof EXPORT_COLUMNS)[number];
