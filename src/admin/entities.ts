import { REPORT_REASONS, REPORT_STATES } from '../report/report.entity';
import type { FieldType } from './query';

export const ROLES = ['ROLE_USER', 'ROLE_ADMIN', 'ROLE_DEVELOPER', 'ROLE_TEAM'] as const;

export interface AdminField {
  name: string;
  type: FieldType;
  description: string;
  /** `alias.column` of a table in the entity's FROM/JOIN (trusted identifiers), or `expr`. */
  column?: string;
  /** A trusted SQL expression (e.g. a computed flag) instead of a column. */
  expr?: string;
  freeText?: boolean;
  editable?: boolean;
  nullable?: boolean;
  values?: readonly string[];
  /** Shown as a list (comma-separated column). */
  list?: boolean;
  /** Longest accepted string for an editable text field (the column's length). */
  maxLength?: number;
}

export interface AdminEntityDef {
  name: string;
  description: string;
  table: string;
  alias: string;
  joins?: Array<{ table: string; alias: string; on: string }>;
  fields: AdminField[];
  defaultSort: { field: string; direction: 'ASC' | 'DESC' };
  /** Whether PUT may create an entry with a new id. */
  creatable?: boolean;
  deletable: boolean;
}

/**
 * The entities of the admin API with their field allow-lists. Only these columns are ever
 * selected, searched, sorted or written. Secrets (password hashes, API key hashes and encrypted
 * keys, sessions) are not listed and so can never leave the database through this API.
 */
export const ADMIN_ENTITIES: readonly AdminEntityDef[] = [
  {
    name: 'users',
    description: 'User accounts',
    table: 'users',
    alias: 'u',
    defaultSort: { field: 'createdDate', direction: 'DESC' },
    deletable: true,
    fields: [
      { name: 'id', type: 'keyword', column: 'u.id', description: 'UUID' },
      {
        name: 'username',
        type: 'text',
        column: 'u.username',
        description: 'Login name at the provider',
        freeText: true,
      },
      {
        name: 'email',
        type: 'text',
        column: 'u.email',
        description: 'E-mail address',
        freeText: true,
        nullable: true,
      },
      {
        name: 'imageUrl',
        type: 'text',
        column: 'u.image_url',
        description: 'Avatar URL',
        nullable: true,
      },
      {
        name: 'activated',
        type: 'boolean',
        column: 'u.activated',
        description: 'Inactive accounts keep only anonymous abilities',
        editable: true,
      },
      {
        name: 'provider',
        type: 'keyword',
        column: 'u.provider',
        description: 'Login provider (github, discord, oidc, dev)',
      },
      {
        name: 'providerUserId',
        type: 'keyword',
        column: 'u.provider_user_id',
        description: "The provider's user id",
      },
      {
        name: 'roles',
        type: 'text',
        column: 'u.roles',
        description: `Roles (${ROLES.join(', ')})`,
        editable: true,
        list: true,
        values: ROLES,
      },
      { name: 'createdDate', type: 'date', column: 'u.created_date', description: 'First login' },
    ],
  },
  {
    name: 'shorts',
    description: 'Short links',
    table: 'shorts',
    alias: 's',
    joins: [{ table: 'users', alias: 'o', on: 'o.id = s.owner_id' }],
    defaultSort: { field: 'createdAt', direction: 'DESC' },
    deletable: true,
    fields: [
      { name: 'id', type: 'keyword', column: 's.id', description: 'UUID' },
      {
        name: 'code',
        type: 'keyword',
        column: 's.code',
        description: 'The short code (case-sensitive)',
        freeText: true,
      },
      {
        name: 'name',
        type: 'text',
        column: 's.name',
        description: 'Name given by the owner',
        freeText: true,
        editable: true,
        nullable: true,
        maxLength: 100,
      },
      { name: 'url', type: 'text', column: 's.url', description: 'Target URL', freeText: true },
      {
        name: 'hasPassword',
        type: 'boolean',
        expr: 'CASE WHEN s.password_hash IS NULL THEN 0 ELSE 1 END',
        description: 'Protected by a password',
      },
      {
        name: 'maxUses',
        type: 'number',
        column: 's.max_uses',
        description: 'Maximum follows (empty: unlimited)',
        editable: true,
        nullable: true,
      },
      { name: 'uses', type: 'number', column: 's.uses', description: 'Follows so far' },
      { name: 'createdAt', type: 'date', column: 's.created_at', description: 'Creation time' },
      {
        name: 'expireAt',
        type: 'date',
        column: 's.expire_at',
        description: 'Expiry (empty: never)',
        editable: true,
        nullable: true,
      },
      {
        name: 'ownerId',
        type: 'keyword',
        column: 's.owner_id',
        description: 'Owner user id (empty: anonymous)',
        nullable: true,
      },
      {
        name: 'owner',
        type: 'text',
        column: 'o.username',
        description: 'Owner username',
        freeText: true,
        nullable: true,
      },
      {
        name: 'dangerous',
        type: 'boolean',
        column: 's.dangerous',
        description: 'Flagged dangerous (visitors see a warning first)',
        editable: true,
      },
      {
        name: 'dangerReason',
        type: 'enum',
        column: 's.danger_reason',
        description: 'Why it is flagged',
        values: REPORT_REASONS,
        editable: true,
        nullable: true,
      },
    ],
  },
  {
    name: 'reports',
    description: 'Reports of shorts (moderation queue)',
    table: 'reports',
    alias: 'r',
    joins: [
      { table: 'shorts', alias: 's', on: 's.id = r.short_id' },
      { table: 'users', alias: 'u', on: 'u.id = r.reporter_id' },
    ],
    defaultSort: { field: 'createdAt', direction: 'DESC' },
    deletable: true,
    fields: [
      { name: 'id', type: 'keyword', column: 'r.id', description: 'UUID' },
      { name: 'shortId', type: 'keyword', column: 'r.short_id', description: 'Reported short id' },
      {
        name: 'shortCode',
        type: 'keyword',
        column: 's.code',
        description: 'Reported short code',
        freeText: true,
      },
      {
        name: 'shortUrl',
        type: 'text',
        column: 's.url',
        description: 'Target URL of the reported short',
        freeText: true,
      },
      {
        name: 'shortDangerous',
        type: 'boolean',
        column: 's.dangerous',
        description: 'Whether the short is flagged',
      },
      {
        name: 'reporterId',
        type: 'keyword',
        column: 'r.reporter_id',
        description: 'Reporting user id',
      },
      {
        name: 'reporter',
        type: 'text',
        column: 'u.username',
        description: 'Reporting username',
        freeText: true,
      },
      {
        name: 'reason',
        type: 'enum',
        column: 'r.reason',
        description: 'Report type',
        values: REPORT_REASONS,
      },
      {
        name: 'description',
        type: 'text',
        column: 'r.description',
        description: 'Report text',
        freeText: true,
      },
      {
        name: 'state',
        type: 'enum',
        column: 'r.state',
        description: 'open, dismissed or actioned',
        values: REPORT_STATES,
        editable: true,
      },
      { name: 'createdAt', type: 'date', column: 'r.created_at', description: 'Report time' },
    ],
  },
  {
    name: 'blacklist',
    description:
      'Blacklisted hosts (with subdomains) and URL patterns; PUT with a new UUID adds an entry',
    table: 'blacklist',
    alias: 'b',
    defaultSort: { field: 'createdAt', direction: 'DESC' },
    creatable: true,
    deletable: true,
    fields: [
      { name: 'id', type: 'keyword', column: 'b.id', description: 'UUID' },
      {
        name: 'kind',
        type: 'enum',
        column: 'b.kind',
        description: 'host (host and subdomains) or regex (whole URL)',
        values: ['host', 'regex'],
        editable: true,
      },
      {
        name: 'value',
        type: 'text',
        column: 'b.value',
        description: 'Normalised host or regular expression',
        freeText: true,
        editable: true,
        maxLength: 512,
      },
      {
        name: 'reason',
        type: 'text',
        column: 'b.reason',
        description: 'Why it is blacklisted',
        freeText: true,
        editable: true,
        nullable: true,
        maxLength: 255,
      },
      { name: 'createdAt', type: 'date', column: 'b.created_at', description: 'Added at' },
    ],
  },
  {
    name: 'apikeys',
    description:
      'API keys (metadata only: the key, its hash and its encrypted copy are never shown); DELETE revokes',
    table: 'api_keys',
    alias: 'k',
    joins: [{ table: 'users', alias: 'u', on: 'u.id = k.user_id' }],
    defaultSort: { field: 'createdAt', direction: 'DESC' },
    deletable: true,
    fields: [
      { name: 'id', type: 'keyword', column: 'k.id', description: 'Record id (not the key)' },
      { name: 'userId', type: 'keyword', column: 'k.user_id', description: 'Owner user id' },
      {
        name: 'user',
        type: 'text',
        column: 'u.username',
        description: 'Owner username',
        freeText: true,
        nullable: true,
      },
      {
        name: 'createdAt',
        type: 'date',
        column: 'k.created_at',
        description: 'Created or last renewed',
      },
    ],
  },
];

export function findEntity(name: string): AdminEntityDef | undefined {
  return ADMIN_ENTITIES.find((e) => e.name === name.toLowerCase());
}
