/**
 * The field table of a short: every field a caller may set, with what it is, its limits, who may
 * set it, who sees it, how an import finds it and what its checks answer — the one declaration
 * that the server's DTOs (in and out), checks, follow row, import and export, the admin area and
 * the web client's form and import preview are derived from (as configuration is derived from
 * src/config/variables.ts). A data-only field is a row here, its ShortEntity property, a migration
 * and its labels in the web catalogues; docs/adding-a-field.md walks through one.
 */
import type { ErrorKey, SpecificErrorKey } from './error-keys';
import type { QrStyleInput } from './qr-style';
import type { RedirectRule } from './redirect-rules';
import type { PreviewPart } from './social-preview';
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
  | 'url'
  | 'code'
  | 'text'
  | 'password'
  | 'date-time'
  | 'integer'
  | 'domain'
  | 'rules'
  | 'team'
  | 'tags'
  | 'preview'
  | 'qr-style';

/** Who may set a field: everybody (anonymous creates too), or logged-in users (and admins). */
export type SetBy = 'anonymous' | 'user';

/**
 * Who sees a field in a short's answer (ShortDto, under the field's name): `everyone`; `revealed`:
 * whoever may see the target (its owner, admins, the right password; others get null); `owner`:
 * its owner and admins (absent for others).
 */
export type ShownTo = 'everyone' | 'revealed' | 'owner';

/** How a short's answer shows a field (its OpenAPI schema beside the row's type). */
export interface ShownSpec {
  to: ShownTo;
  /** The answer may hold null (none, or withheld). */
  nullable?: true;
  description?: string;
  example?: string;
}

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
  /**
   * Who sees it in a short's answer, by its type: a date as ISO text, rules as a list ([] for
   * none), a domain's `none` as null. Absent: never shown as it is (a password: `hasPassword`).
   */
  shown?: ShownSpec;
  /** The follow engine reads it with the short (the follow row: one positional SELECT). */
  followed?: true;
  /** A column of the export (CSV and JSON; rules as JSON text), which an import reads back. */
  exported?: true;
  /**
   * Listed in the admin area's shorts (searchable; `description` there, else the row's): `edit`
   * when admins change it there, by the owner's boundary validation and checks. Absent: not listed.
   */
  admin?: { edit?: true; freeText?: true; description?: string };
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
    shown: {
      to: 'revealed',
      nullable: true,
      description:
        'Null when password-protected and not unlocked, or when the short has maxUses (shown only to its owner and admins)',
    },
    followed: true,
    exported: true,
    admin: { freeText: true, description: 'Target URL' },
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
    followed: true,
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
    shown: { to: 'everyone' },
    exported: true,
    admin: { freeText: true, description: 'The short code (case-sensitive)' },
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
    shown: { to: 'everyone', nullable: true },
    followed: true,
    exported: true,
    admin: { edit: true, freeText: true, description: 'Name given by the owner' },
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
    shown: { to: 'everyone', nullable: true },
    followed: true,
    exported: true,
    admin: { edit: true, description: 'Expiry (empty: never)' },
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
    shown: { to: 'everyone', nullable: true },
    followed: true,
    exported: true,
    admin: { edit: true, description: 'Maximum follows (empty: unlimited)' },
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
    shown: {
      to: 'everyone',
      nullable: true,
      description: 'The own domain the short lives on; null: this service’s host',
      example: 'go.example.com',
    },
    exported: true,
    admin: {},
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
    shown: {
      to: 'owner',
      nullable: true,
      description:
        'Where visitors go when the short has expired or is used up (null: the not-found page)',
    },
    followed: true,
    exported: true,
    admin: { edit: true },
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
    shown: { to: 'owner', description: 'Redirect rules in order (empty: none)' },
    followed: true,
    exported: true,
    admin: {},
  },
  team: {
    type: 'team',
    column: 'teamId',
    setBy: 'user',
    nullable: true,
    maxLength: 36,
    importAliases: ['team'],
    invalidKey: 'team_forbidden',
    forbidden: { sentence: 'You may not write to this team', key: 'team_forbidden' },
    errorKeys: ['team_forbidden'],
    description:
      'The team the short belongs to (an id of a team where the caller is owner or editor; logged-in only); null: the caller’s own space. On edit it moves the short',
    example: '6f1c2a4e-0000-4000-8000-000000000000',
    shown: {
      to: 'owner',
      nullable: true,
      description: 'The team the short belongs to, `{id, name}`; null: its owner’s own space',
    },
    exported: true,
    admin: { description: 'Team id (empty: the owner’s own space)' },
  },
  tags: {
    type: 'tags',
    column: 'tags',
    setBy: 'user',
    nullable: true,
    importAliases: ['tags', 'tag'],
    invalidKey: 'tag_invalid',
    errorKeys: ['tag_invalid', 'too_many_tags'],
    // Short, and not importing ./tags: this table is part of every first visit of the web client,
    // the tags' rules only of the pages that use them (MAX_TAGS there is 10).
    description: 'Tags (logged-in; at most 10; case-insensitive; null or [] removes them)',
    shown: { to: 'owner', description: 'Tags (empty: none)' },
    exported: true,
    admin: {
      edit: true,
      freeText: true,
      description: 'Comma-separated',
    },
  },
  preview: {
    type: 'preview',
    column: 'preview',
    setBy: 'user',
    nullable: true,
    importAliases: ['preview'],
    invalidKey: 'preview_invalid',
    errorKeys: ['preview_invalid', 'preview_too_long', 'preview_image_invalid'],
    // Short, and not importing ./social-preview: this table is part of every first visit (the
    // limits and the rest are said by the DTOs, src/shorts/dto/social-preview.dto.ts).
    description: 'Social preview for link cards (logged-in)',
    shown: { to: 'revealed', nullable: true },
    followed: true,
    exported: true,
    admin: { edit: true },
  },
  // Not importing ./qr-style either (its rules are the QR dialog's, a lazy chunk).
  qrStyle: {
    type: 'qr-style',
    column: 'qrStyle',
    setBy: 'user',
    nullable: true,
    importAliases: ['qrStyle'],
    invalidKey: 'field_invalid',
    errorKeys: ['field_invalid', 'qr_contrast'],
    description: 'QR style',
    shown: { to: 'owner', nullable: true },
    exported: true,
    admin: {},
  },
} as const satisfies Record<string, ShortFieldSpec>;

export type ShortFieldName = keyof typeof SHORT_FIELDS;
export const SHORT_FIELD_NAMES = Object.keys(SHORT_FIELDS) as ShortFieldName[];

type ValueOf<T extends FieldType> = T extends 'integer'
  ? number
  : T extends 'rules'
    ? RedirectRule[]
    : T extends 'tags'
      ? string[]
      : T extends 'preview'
        ? Partial<Record<PreviewPart, string | null>>
        : T extends 'qr-style'
          ? QrStyleInput
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

/** The fields whose row says `key` (e.g. `FieldsWith<'exported'>`: the exported ones). */
export type FieldsWith<Key extends keyof ShortFieldSpec> = {
  [K in ShortFieldName]: (typeof SHORT_FIELDS)[K] extends Record<Key, unknown> ? K : never;
}[ShortFieldName];

/** The fields whose row says `key`, in the table's order. */
export function fieldsWith<Key extends keyof ShortFieldSpec>(key: Key): FieldsWith<Key>[] {
  return SHORT_FIELD_NAMES.filter(
    (name) => (SHORT_FIELDS[name] as ShortFieldSpec)[key] !== undefined,
  ) as FieldsWith<Key>[];
}

/** The ShortEntity properties of the fields whose row says `key` (`password`: its hash). */
export type ColumnsOf<Name extends ShortFieldName> = (typeof SHORT_FIELDS)[Name]['column'];

/**
 * In a view's order of properties (a short's answer, the export, the admin area): where the
 * fields that the order does not name go, in the table's order. The orders name the properties
 * that are no fields and keep the places that answers have always had; a new field needs no entry.
 */
export const OTHER_FIELDS = '…fields';

/** A view's order with OTHER_FIELDS replaced by the `fields` it does not name. */
export function placeFields<P extends string, F extends ShortFieldName>(
  order: readonly (P | typeof OTHER_FIELDS)[],
  fields: readonly F[],
): (P | F)[] {
  const named = new Set<string>(order);
  const others = fields.filter((f) => !named.has(f));
  return order.flatMap((p): (P | F)[] => (p === OTHER_FIELDS ? others : [p as P]));
}

/** The export's own columns: a short's ids, its password flag and its counts. */
type ExportOwnColumn = 'id' | 'hasPassword' | 'uses' | 'visits' | 'createdAt';

/**
 * The export's columns in order: a short as the API shows it to its owner, with its uses and
 * visits (ExportedShortDto): its own columns and every `exported` field (rules as JSON text); the
 * import reads back the ones with aliases.
 */
export const EXPORT_COLUMNS = placeFields<
  ExportOwnColumn | FieldsWith<'exported'>,
  FieldsWith<'exported'>
>(
  [
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
    OTHER_FIELDS,
  ],
  fieldsWith('exported'),
);
export type ExportColumn = ExportOwnColumn | FieldsWith<'exported'>;
