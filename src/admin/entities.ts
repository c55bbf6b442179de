import type { DataSource, EntityTarget } from 'typeorm';
import { ROLES, UserEntity } from '../account/user.entity';
import type { UserService } from '../account/user.service';
import { ApiKeyEntity } from '../apikey/apikey.entity';
import type { ApiKeyService } from '../apikey/apikey.service';
import { BlacklistEntity, type BlacklistKind } from '../blacklist/blacklist.entity';
import type { BlacklistService } from '../blacklist/blacklist.service';
import { DomainEntity } from '../domains/domain.entity';
import type { DomainService } from '../domains/domain.service';
import { PageEntity } from '../pages/page.entity';
import type { PagesService } from '../pages/pages.service';
import { ShortEntity } from '../shorts/short.entity';
import type { ShortEditService } from '../shorts/short-edit.service';
import type { Actor } from '../common/actor';
import type { RequestOrigin } from '../common/request';
import {
  REPORT_REASONS,
  REPORT_STATES,
  ReportEntity,
  type ReportState,
} from '../report/report.entity';
import type { ReportService } from '../report/report.service';
import { TeamEntity } from '../teams/team.entity';
import type { TeamsService } from '../teams/teams.service';
import {
  type FieldType as ShortFieldType,
  fieldsWith,
  OTHER_FIELDS,
  placeFields,
  SHORT_FIELDS,
  type ShortFieldSpec,
} from '../shared/short-fields';
import { PAGE_THEMES } from '../shared/pages';
import { splitTagText } from '../shared/tags';
import { API_KEY_SCOPES } from '../shared/teams';
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
  /**
   * An edit is handed on as it came (the entity's `update` validates it: a short's fields by the
   * owner's boundary validation and checks, with their field errors and keys).
   */
  checkedByOwner?: boolean;
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
  /** Applies a validated change of an existing entry (`origin`: the request's, for self-links). */
  update?(
    id: string,
    patch: AdminPatch,
    ctx: { actor: Actor; existing: AdminRow; origin?: RequestOrigin },
  ): Promise<void>;
  /** Creates an entry with a new id (PUT of an unknown UUID); absent: not creatable. */
  create?(id: string, patch: AdminPatch, actor: Actor): Promise<void>;
  /** Deletes an entry; absent: not deletable. */
  remove?(id: string, actor: Actor): Promise<void>;
}

/** The services that own the tables the admin API shows. */
export interface AdminOwners {
  users: UserService;
  shorts: ShortEditService;
  reports: ReportService;
  blacklist: BlacklistService;
  apiKeys: ApiKeyService;
  domains: DomainService;
  teams: TeamsService;
  pages: PagesService;
}

const optional = <T>(v: unknown) => v as T | undefined;

/** A field that is the entity's own column of the same name. */
const column = (
  name: string,
  type: FieldType,
  description: string,
  more: Partial<AdminField> = {},
): AdminField => ({ name, type, property: name, description, ...more });

/** A joined table's user name (`alias.username`), searchable as free text. */
const username = (name: string, alias: string, description: string): AdminField => ({
  name,
  type: 'text',
  column: `${alias}.username`,
  description,
  freeText: true,
  nullable: true,
});

/** The admin field type of a short's field of each type (src/shared/short-fields.ts). */
const SHORT_FIELD_TYPES: Record<ShortFieldType, FieldType> = {
  url: 'text',
  code: 'keyword',
  text: 'text',
  password: 'text',
  'date-time': 'date',
  integer: 'number',
  domain: 'keyword',
  team: 'keyword',
  rules: 'text',
  // Shown and edited as the column's comma-separated text (edits: adminValue).
  tags: 'text',
  // Shown and edited as the column's JSON text (edits: adminValue).
  preview: 'text',
  // Listed as the column's text (`fg,bg,ec,margin`), not editable there.
  'qr-style': 'text',
};

/**
 * A short's field as an admin edit hands it to the owner's validation: as it came, except tags,
 * which the admin area edits as comma-separated text (the API takes a list), and a preview, edited
 * as JSON text (the API takes an object; empty text removes it).
 */
function adminValue(name: string, value: unknown): unknown {
  const spec: ShortFieldSpec | undefined = (SHORT_FIELDS as Record<string, ShortFieldSpec>)[name];
  if (spec?.type === 'tags' && typeof value === 'string') return splitTagText(value);
  if (spec?.type === 'preview' && typeof value === 'string') {
    if (value.trim() === '') return null;
    try {
      return JSON.parse(value) as unknown; // the field's check refuses what is no preview
    } catch {
      return value;
    }
  }
  return value;
}

/** A short's fields that the admin area lists (rows with `admin`), as admin fields. */
function shortFields(): AdminField[] {
  return fieldsWith('admin').map((name) => {
    const spec: ShortFieldSpec = SHORT_FIELDS[name];
    const admin = spec.admin ?? {};
    return {
      name,
      type: SHORT_FIELD_TYPES[spec.type],
      property: spec.column,
      description: admin.description ?? spec.description,
      ...(admin.freeText ? { freeText: true } : {}),
      ...(admin.edit ? { editable: true, checkedByOwner: true } : {}),
    };
  });
}

/** The admin area's own fields of a short (no field of the table): ids, counts, owner, flags. */
const SHORT_OWN_FIELDS: AdminField[] = [
  column('id', 'keyword', 'UUID'),
  {
    name: 'hasPassword',
    type: 'boolean',
    expr: 'CASE WHEN s.password_hash IS NULL THEN 0 ELSE 1 END',
    description: 'Protected by a password',
  },
  column('uses', 'number', 'Follows so far'),
  column('createdAt', 'date', 'Creation time'),
  column('ownerId', 'keyword', 'Owner user id (empty: anonymous)'),
  username('owner', 'o', 'Owner username'),
  column('dangerous', 'boolean', 'Flagged dangerous (visitors see a warning first)', {
    editable: true,
  }),
  column('dangerReason', 'enum', 'Why it is flagged', {
    values: REPORT_REASONS,
    editable: true,
  }),
];

/** The admin area's shorts in order: its own fields, and the table's (new ones among OTHER_FIELDS). */
function shortAdminFields(): AdminField[] {
  const own = new Map(SHORT_OWN_FIELDS.map((f) => [f.name, f]));
  const fields = new Map(shortFields().map((f) => [f.name, f]));
  const order = placeFields(
    [
      ...'id code name url hasPassword maxUses uses createdAt expireAt'.split(' '),
      OTHER_FIELDS,
      ...'ownerId owner dangerous dangerReason'.split(' '),
    ],
    fieldsWith('admin'),
  );
  return order.map((name) => {
    const f = own.get(name) ?? fields.get(name);
    if (!f) throw new Error(`Admin shorts: ${name} is neither an admin field nor listed`);
    return f;
  });
}

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
        // The last owner of a team with members or things: 409 team_last_owner; the team's shorts
        // and domains he created go to another owner (they would go with his account).
        await o.teams.releaseUser(id);
        await o.shorts.deleteAllOwnedBy(id);
        await o.users.remove(id);
      },
      fields: [
        column('id', 'keyword', 'UUID'),
        column('username', 'text', 'Login name at the provider', { freeText: true }),
        column('email', 'text', 'E-mail address', { freeText: true }),
        column('imageUrl', 'text', 'Avatar URL'),
        column('activated', 'boolean', 'Inactive accounts keep only anonymous abilities', {
          editable: true,
        }),
        column('provider', 'keyword', 'Login provider (github, discord, oidc, dev)'),
        column('providerUserId', 'keyword', "The provider's user id"),
        column('roles', 'text', `Roles (${ROLES.join(', ')})`, {
          editable: true,
          list: true,
          values: ROLES,
        }),
        column('createdDate', 'date', 'First login'),
      ],
    },
    {
      name: 'shorts',
      description: 'Short links',
      entity: ShortEntity,
      alias: 's',
      joins: [{ table: 'users', alias: 'o', on: 'o.id = s.owner_id' }],
      defaultSort: { field: 'createdAt', direction: 'DESC' },
      update: async (id, p, { actor, existing, origin }) => {
        const fields = Object.fromEntries(
          Object.entries(p)
            .filter(([name]) => Object.hasOwn(SHORT_FIELDS, name))
            .map(([name, value]) => [name, adminValue(name, value)]),
        );
        if (Object.keys(fields).length) await o.shorts.adminEdit(id, fields, actor, origin);
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
      fields: shortAdminFields(),
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
        column('id', 'keyword', 'UUID'),
        column('shortId', 'keyword', 'Reported short id'),
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
        column('reporterId', 'keyword', 'Reporting user id'),
        {
          name: 'reporter',
          type: 'text',
          column: 'u.username',
          description: 'Reporting username',
          freeText: true,
        },
        column('reason', 'enum', 'Report type', { values: REPORT_REASONS }),
        column('description', 'text', 'Report text', { freeText: true }),
        column('state', 'enum', 'open, dismissed or actioned', {
          values: REPORT_STATES,
          editable: true,
        }),
        column('createdAt', 'date', 'Report time'),
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
        column('id', 'keyword', 'UUID'),
        column('kind', 'enum', 'host (host and subdomains) or regex (whole URL)', {
          values: ['host', 'regex'],
          editable: true,
        }),
        column('value', 'text', 'Normalised host or regular expression', {
          freeText: true,
          editable: true,
        }),
        column('reason', 'text', 'Why it is blacklisted', { freeText: true, editable: true }),
        column('createdAt', 'date', 'Added at'),
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
        column('id', 'keyword', 'Record id (not the key)'),
        column('userId', 'keyword', 'Owner user id'),
        username('user', 'u', 'Owner username'),
        column('name', 'text', 'Name (unique per user; ShareX: the spec’s key)', {
          freeText: true,
        }),
        column('prefix', 'keyword', 'The key’s first characters'),
        column('scopes', 'text', `Scopes (${API_KEY_SCOPES.join(', ')})`, {
          list: true,
          values: API_KEY_SCOPES,
        }),
        column('teamId', 'keyword', 'The team the key acts for (null: its user’s own space)'),
        column('createdAt', 'date', 'Created or last renewed'),
        column('expiresAt', 'date', 'Stops working at (null: never)'),
        column('lastUsedAt', 'date', 'Last used (written at most once a minute)'),
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
        column('id', 'keyword', 'UUID'),
        column('host', 'text', 'Host name (lower case, punycode)', { freeText: true }),
        column('ownerId', 'keyword', 'Owner user id (null: shared)'),
        username('owner', 'u', 'Owner username'),
        column('verified', 'boolean', 'TXT record seen'),
        column('enabled', 'boolean', 'false: its follows answer the not-found redirect', {
          editable: true,
        }),
        column('failReason', 'keyword', 'Why the last check failed'),
        column('failingSince', 'date', 'First failed check of the current run'),
        column('createdAt', 'date', 'Added at'),
      ],
    },
    {
      name: 'teams',
      description:
        'Teams (members, invites and shorts are managed by their owners); DELETE only when no short or domain belongs to it',
      entity: TeamEntity,
      alias: 't',
      defaultSort: { field: 'createdAt', direction: 'DESC' },
      remove: (id) => o.teams.adminDelete(id),
      fields: [
        column('id', 'keyword', 'UUID'),
        column('name', 'text', 'Name', { freeText: true }),
        {
          name: 'members',
          type: 'number',
          expr: '(SELECT COUNT(*) FROM team_members tm WHERE tm.team_id = t.id)',
          description: 'Members',
          nullable: false,
        },
        column('createdAt', 'date', 'Created at'),
      ],
    },
    {
      name: 'pages',
      description:
        'Link pages, public at /p/{slug} (edited by their owners); DELETE removes an abusive page at once',
      entity: PageEntity,
      alias: 'p',
      joins: [
        { table: 'users', alias: 'u', on: 'u.id = p.owner_id' },
        { table: 'teams', alias: 't', on: 't.id = p.team_id' },
      ],
      defaultSort: { field: 'createdAt', direction: 'DESC' },
      remove: (id, actor) => o.pages.delete(id, actor),
      fields: [
        column('id', 'keyword', 'UUID'),
        column('slug', 'keyword', 'Public path /p/{slug} (case-sensitive)', { freeText: true }),
        column('title', 'text', 'Title', { freeText: true }),
        column('description', 'text', 'Text under the title', { freeText: true }),
        column('theme', 'enum', 'Colours (light, dark, auto)', { values: PAGE_THEMES }),
        {
          name: 'links',
          type: 'number',
          expr: '(SELECT COUNT(*) FROM page_links pl WHERE pl.page_id = p.id)',
          description: 'Links on the page',
          nullable: false,
        },
        column('ownerId', 'keyword', 'Creator user id'),
        username('owner', 'u', 'Creator username'),
        column('teamId', 'keyword', 'The team the page belongs to (null: its creator’s own space)'),
        {
          name: 'team',
          type: 'text',
          column: 't.name',
          description: 'Team name',
          freeText: true,
          nullable: true,
        },
        column('createdAt', 'date', 'Created at'),
        column('updatedAt', 'date', 'Last changed'),
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
