import type { DataSource, EntityTarget } from 'typeorm';
import { ROLES, UserEntity } from '../account/user.entity';
import type { UserService } from '../account/user.service';
import { ApiKeyEntity } from '../apikey/apikey.entity';
import type { ApiKeyService } from '../apikey/apikey.service';
import { BlacklistEntity, type BlacklistKind } from '../blacklist/blacklist.entity';
import type { BlacklistService } from '../blacklist/blacklist.service';
import { DomainEntity } from '../domains/domain.entity';
import type { DomainService } from '../domains/domain.service';
import { ShortEntity } from '../shorts/short.entity';
import type { ShortService } from '../shorts/short.service';
import type { Actor } from '../common/actor';
import {
  REPORT_REASONS,
  REPORT_STATES,
  ReportEntity,
  type ReportState,
} from '../report/report.entity';
import type { ReportService } from '../report/report.service';
import type { AdminEntityName, FieldType } from './query';

export type AdminRow = Record<string, unknown>;
/** A validated PUT body: field name → value (dates as Date, lists as string arrays). */
export type AdminPatch = Record<string, unknown>;

export interface AdminField {
  name: string;
  type: FieldType;
  description: string;
  /**
   * A column of the entity's own table, by entity property: its SQL name, length and nullability
   * are read from the TypeORM metadata (see resolveAdminEntities), never restated here.
   */
  property?: string;
  /** `alias.column` of a joined table (trusted identifiers). */
  column?: string;
  /** A trusted SQL expression (e.g. a computed flag) instead of a column. */
  expr?: string;
  freeText?: boolean;
  editable?: boolean;
  /** For joined columns and expressions (own columns: from the metadata). */
  nullable?: boolean;
  values?: readonly string[];
  /** Shown as a list (comma-separated column). */
  list?: boolean;
  /** Longest accepted string (own columns: the column's length). */
  maxLength?: number;
}

/** An entity of the admin API. Writes go to the methods of the module that owns the table. */
export interface AdminEntityDef {
  name: AdminEntityName;
  description: string;
  entity: EntityTarget<object>;
  /** The table (from the metadata). */
  table?: string;
  alias: string;
  joins?: Array<{ table: string; alias: string; on: string }>;
  fields: AdminField[];
  defaultSort: { field: string; direction: 'ASC' | 'DESC' };
  /** Applies a validated change of an existing entry. */
  update?(id: string, patch: AdminPatch, ctx: { actor: Actor; existing: AdminRow }): Promise<void>;
  /** Creates an entry with a new id (PUT of an unknown UUID); absent: not creatable. */
  create?(id: string, patch: AdminPatch, actor: Actor): Promise<void>;
  /** Deletes an entry; absent: not deletable. */
  remove?(id: string, actor: Actor): Promise<void>;
}

/** The services that own the tables the admin API shows. */
export interface AdminOwners {
  users: UserService;
  shorts: ShortService;
  reports: ReportService;
  blacklist: BlacklistService;
  apiKeys: ApiKeyService;
  domains: DomainService;
}

const optional = <T>(v: unknown) => v as T | undefined;

/**
 * The entities of the admin API with their field allow-lists. Only these columns are ever
 * selected, searched, sorted or written. Secrets (password hashes, API key hashes and encrypted
 * keys, sessions) are not listed and so can never leave the database through this API.
 */
export function adminEntities(o: AdminOwners): AdminEntityDef[] {
  return [
    {
      name: 'users',
      description: 'User accounts',
      entity: UserEntity,
      alias: 'u',
      defaultSort: { field: 'createdDate', direction: 'DESC' },
      update: (id, p, { actor }) =>
        o.users.adminUpdate(
          id,
          { activated: optional<boolean>(p.activated), roles: optional<string[]>(p.roles) },
          actor,
        ),
      remove: async (id, actor) => {
        o.users.assertRemovable(id, actor);
        await o.shorts.deleteAllOwnedBy(id);
        await o.users.remove(id);
      },
      fields: [
        { name: 'id', type: 'keyword', property: 'id', description: 'UUID' },
        {
          name: 'username',
          type: 'text',
          property: 'username',
          description: 'Login name at the provider',
          freeText: true,
        },
        {
          name: 'email',
          type: 'text',
          property: 'email',
          description: 'E-mail address',
          freeText: true,
        },
        { name: 'imageUrl', type: 'text', property: 'imageUrl', description: 'Avatar URL' },
        {
          name: 'activated',
          type: 'boolean',
          property: 'activated',
          description: 'Inactive accounts keep only anonymous abilities',
          editable: true,
        },
        {
          name: 'provider',
          type: 'keyword',
          property: 'provider',
          description: 'Login provider (github, discord, oidc, dev)',
        },
        {
          name: 'providerUserId',
          type: 'keyword',
          property: 'providerUserId',
          description: "The provider's user id",
        },
        {
          name: 'roles',
          type: 'text',
          property: 'roles',
          description: `Roles (${ROLES.join(', ')})`,
          editable: true,
          list: true,
          values: ROLES,
        },
        { name: 'createdDate', type: 'date', property: 'createdDate', description: 'First login' },
      ],
    },
    {
      name: 'shorts',
      description: 'Short links',
      entity: ShortEntity,
      alias: 's',
      joins: [{ table: 'users', alias: 'o', on: 'o.id = s.owner_id' }],
      defaultSort: { field: 'createdAt', direction: 'DESC' },
      update: async (id, p, { existing }) => {
        await o.shorts.adminUpdate(id, {
          name: optional<string | null>(p.name),
          maxUses: optional<number | null>(p.maxUses),
          expireAt: optional<Date | null>(p.expireAt),
        });
        const reason = optional<string | null>(p.dangerReason);
        if (p.dangerous !== undefined) {
          await o.reports.setDangerous(
            id,
            p.dangerous as boolean,
            reason ?? (existing.dangerReason as string | null),
          );
        } else if (reason !== undefined) {
          await o.shorts.setDangerReason(id, reason);
        }
      },
      remove: (id, actor) => o.shorts.delete(id, actor),
      fields: [
        { name: 'id', type: 'keyword', property: 'id', description: 'UUID' },
        {
          name: 'code',
          type: 'keyword',
          property: 'code',
          description: 'The short code (case-sensitive)',
          freeText: true,
        },
        {
          name: 'name',
          type: 'text',
          property: 'name',
          description: 'Name given by the owner',
          freeText: true,
          editable: true,
        },
        { name: 'url', type: 'text', property: 'url', description: 'Target URL', freeText: true },
        {
          name: 'hasPassword',
          type: 'boolean',
          expr: 'CASE WHEN s.password_hash IS NULL THEN 0 ELSE 1 END',
          description: 'Protected by a password',
        },
        {
          name: 'maxUses',
          type: 'number',
          property: 'maxUses',
          description: 'Maximum follows (empty: unlimited)',
          editable: true,
        },
        { name: 'uses', type: 'number', property: 'uses', description: 'Follows so far' },
        { name: 'createdAt', type: 'date', property: 'createdAt', description: 'Creation time' },
        {
          name: 'expireAt',
          type: 'date',
          property: 'expireAt',
          description: 'Expiry (empty: never)',
          editable: true,
        },
        {
          name: 'ownerId',
          type: 'keyword',
          property: 'ownerId',
          description: 'Owner user id (empty: anonymous)',
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
          property: 'dangerous',
          description: 'Flagged dangerous (visitors see a warning first)',
          editable: true,
        },
        {
          name: 'dangerReason',
          type: 'enum',
          property: 'dangerReason',
          description: 'Why it is flagged',
          values: REPORT_REASONS,
          editable: true,
        },
      ],
    },
    {
      name: 'reports',
      description: 'Reports of shorts (moderation queue)',
      entity: ReportEntity,
      alias: 'r',
      joins: [
        { table: 'shorts', alias: 's', on: 's.id = r.short_id' },
        { table: 'users', alias: 'u', on: 'u.id = r.reporter_id' },
      ],
      defaultSort: { field: 'createdAt', direction: 'DESC' },
      update: async (id, p) => {
        if (p.state !== undefined) await o.reports.setState(id, p.state as ReportState);
      },
      remove: (id) => o.reports.remove(id),
      fields: [
        { name: 'id', type: 'keyword', property: 'id', description: 'UUID' },
        { name: 'shortId', type: 'keyword', property: 'shortId', description: 'Reported short id' },
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
          property: 'reporterId',
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
          property: 'reason',
          description: 'Report type',
          values: REPORT_REASONS,
        },
        {
          name: 'description',
          type: 'text',
          property: 'description',
          description: 'Report text',
          freeText: true,
        },
        {
          name: 'state',
          type: 'enum',
          property: 'state',
          description: 'open, dismissed or actioned',
          values: REPORT_STATES,
          editable: true,
        },
        { name: 'createdAt', type: 'date', property: 'createdAt', description: 'Report time' },
      ],
    },
    {
      name: 'blacklist',
      description:
        'Blacklisted hosts (with subdomains) and URL patterns; PUT with a new UUID adds an entry',
      entity: BlacklistEntity,
      alias: 'b',
      defaultSort: { field: 'createdAt', direction: 'DESC' },
      update: async (id, p) => {
        await o.blacklist.update(id, {
          kind: optional<BlacklistKind>(p.kind),
          value: optional<string>(p.value),
          reason: optional<string | null>(p.reason),
        });
      },
      create: async (id, p) => {
        await o.blacklist.add(
          p.kind as BlacklistKind,
          p.value as string,
          optional<string | null>(p.reason) ?? null,
          id,
        );
      },
      remove: async (id) => {
        await o.blacklist.remove(id);
      },
      fields: [
        { name: 'id', type: 'keyword', property: 'id', description: 'UUID' },
        {
          name: 'kind',
          type: 'enum',
          property: 'kind',
          description: 'host (host and subdomains) or regex (whole URL)',
          values: ['host', 'regex'],
          editable: true,
        },
        {
          name: 'value',
          type: 'text',
          property: 'value',
          description: 'Normalised host or regular expression',
          freeText: true,
          editable: true,
        },
        {
          name: 'reason',
          type: 'text',
          property: 'reason',
          description: 'Why it is blacklisted',
          freeText: true,
          editable: true,
        },
        { name: 'createdAt', type: 'date', property: 'createdAt', description: 'Added at' },
      ],
    },
    {
      name: 'apikeys',
      description:
        'API keys (metadata only: the key, its hash and its encrypted copy are never shown); DELETE revokes',
      entity: ApiKeyEntity,
      alias: 'k',
      joins: [{ table: 'users', alias: 'u', on: 'u.id = k.user_id' }],
      defaultSort: { field: 'createdAt', direction: 'DESC' },
      remove: async (id) => {
        await o.apiKeys.revoke(id);
      },
      fields: [
        { name: 'id', type: 'keyword', property: 'id', description: 'Record id (not the key)' },
        { name: 'userId', type: 'keyword', property: 'userId', description: 'Owner user id' },
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
          property: 'createdAt',
          description: 'Created or last renewed',
        },
      ],
    },
    {
      name: 'domains',
      description:
        'Own domains (shared ones have no owner); PUT enabled disables or enables one, DELETE only when no short uses it',
      entity: DomainEntity,
      alias: 'd',
      joins: [{ table: 'users', alias: 'u', on: 'u.id = d.owner_id' }],
      defaultSort: { field: 'createdAt', direction: 'DESC' },
      update: async (id, p, { actor }) => {
        await o.domains.update(id, { enabled: optional<boolean>(p.enabled) }, actor);
      },
      remove: (id, actor) => o.domains.delete(id, actor),
      fields: [
        { name: 'id', type: 'keyword', property: 'id', description: 'UUID' },
        {
          name: 'host',
          type: 'text',
          property: 'host',
          description: 'Host name (lower case, punycode)',
          freeText: true,
        },
        {
          name: 'ownerId',
          type: 'keyword',
          property: 'ownerId',
          description: 'Owner user id (null: shared)',
        },
        {
          name: 'owner',
          type: 'text',
          column: 'u.username',
          description: 'Owner username',
          freeText: true,
          nullable: true,
        },
        { name: 'verified', type: 'boolean', property: 'verified', description: 'TXT record seen' },
        {
          name: 'enabled',
          type: 'boolean',
          property: 'enabled',
          description: 'false: its follows answer the not-found redirect',
          editable: true,
        },
        {
          name: 'failReason',
          type: 'keyword',
          property: 'failReason',
          description: 'Why the last check failed',
        },
        {
          name: 'failingSince',
          type: 'date',
          property: 'failingSince',
          description: 'First failed check of the current run',
        },
        { name: 'createdAt', type: 'date', property: 'createdAt', description: 'Added at' },
      ],
    },
  ];
}

/**
 * Fills in what the TypeORM metadata knows of each entity's own columns: the table, the SQL
 * column (`alias.column`), nullability and, for strings, the length.
 */
export function resolveAdminEntities(ds: DataSource, defs: AdminEntityDef[]): AdminEntityDef[] {
  return defs.map((e) => {
    const meta = ds.getMetadata(e.entity);
    return {
      ...e,
      table: meta.tableName,
      fields: e.fields.map((f) => {
        if (!f.property) return f;
        const col = meta.findColumnWithPropertyName(f.property);
        if (!col) throw new Error(`Admin field ${e.name}.${f.name}: no column ${f.property}`);
        const length = Number(col.length);
        return {
          ...f,
          column: `${e.alias}.${col.databaseName}`,
          nullable: col.isNullable,
          maxLength: Number.isFinite(length) && length > 0 ? length : undefined,
        };
      }),
    };
  });
}
