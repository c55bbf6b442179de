import { Injectable } from '@nestjs/common';
import { DataSource, type SelectQueryBuilder } from 'typeorm';
import { UserService } from '../account/user.service';
import { ApiKeyService } from '../apikey/apikey.service';
import { BlacklistService } from '../blacklist/blacklist.service';
import { ShortEditService } from '../shorts/short-edit.service';
import type { Actor } from '../common/actor';
import type { RequestOrigin } from '../common/request';
import { DATETIME_RANGE_MESSAGE, INT_MAX, isStorableDate } from '../common/db-limits';
import { BadRequestError, NotFoundError, ValidationFailedError } from '../common/errors';
import { type Page, type PageRequest, type PagingOptions, toPage } from '../common/paging';
import { dbTimeMs } from '../database/columns';
import { DomainService } from '../domains/domain.service';
import { LogService } from '../logging/log.service';
import type { ErrorKey } from '../shared/error-keys';
import { PagesService } from '../pages/pages.service';
import { ReportService } from '../report/report.service';
import { TeamsService } from '../teams/teams.service';
import {
  adminEntities,
  type AdminEntityDef,
  type AdminField,
  type AdminPatch,
  type AdminRow,
  resolveAdminEntities,
} from './entities';
import { compileQuery, type SearchField } from './query';

export type { AdminRow } from './entities';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function toDate(v: unknown): string | null {
  if (v === null || v === undefined) return null;
  const ms = dbTimeMs(v);
  return Number.isNaN(ms) ? String(v) : new Date(ms).toISOString();
}

/**
 * The generic admin entity API: describe the entities, search them with the query language (reads
 * only), and validate changes and deletions, which each entity hands to the service that owns its
 * table (see entities.ts).
 */
@Injectable()
export class AdminService {
  private readonly entities: AdminEntityDef[];

  constructor(
    private readonly ds: DataSource,
    users: UserService,
    shorts: ShortEditService,
    reports: ReportService,
    blacklist: BlacklistService,
    apiKeys: ApiKeyService,
    domains: DomainService,
    teams: TeamsService,
    pages: PagesService,
    private readonly log: LogService,
  ) {
    this.entities = resolveAdminEntities(
      ds,
      adminEntities({ users, shorts, reports, blacklist, apiKeys, domains, teams, pages }),
    );
  }

  describe(): Array<{
    name: string;
    description: string;
    creatable: boolean;
    deletable: boolean;
    fields: Array<{
      name: string;
      type: string;
      description: string;
      editable: boolean;
      nullable: boolean;
      searchable: boolean;
      sortable: boolean;
      values?: readonly string[];
    }>;
  }> {
    return this.entities.map((e) => ({
      name: e.name,
      description: e.description,
      creatable: !!e.create,
      deletable: !!e.remove,
      fields: e.fields.map((f) => ({
        name: f.name,
        type: f.list ? 'list' : f.type,
        description: f.description,
        editable: !!f.editable,
        nullable: !!f.nullable,
        searchable: true,
        sortable: true,
        ...(f.values ? { values: f.values } : {}),
      })),
    }));
  }

  entity(name: string): AdminEntityDef {
    const e = this.entities.find((x) => x.name === name.toLowerCase());
    if (!e)
      throw new NotFoundError(
        `Unknown entity "${name}"; known: ${this.entities.map((x) => x.name).join(', ')}`,
        'entity_unknown',
      );
    return e;
  }

  // ------------------------------------------------------------------ search

  private sqlOf(f: AdminField): string {
    if (f.expr) return f.expr;
    const [alias, column] = (f.column as string).split('.');
    const esc = (s: string) => this.ds.driver.escape(s);
    return `${esc(alias)}.${esc(column)}`;
  }

  private base(e: AdminEntityDef): SelectQueryBuilder<AdminRow> {
    let qb = this.ds
      .createQueryBuilder()
      .from(e.table as string, e.alias) as SelectQueryBuilder<AdminRow>;
    for (const j of e.joins ?? []) qb = qb.leftJoin(j.table, j.alias, j.on);
    return qb;
  }

  private selectFields(
    e: AdminEntityDef,
    qb: SelectQueryBuilder<AdminRow>,
  ): SelectQueryBuilder<AdminRow> {
    qb.select(this.sqlOf(e.fields[0]), e.fields[0].name);
    for (const f of e.fields.slice(1)) qb.addSelect(this.sqlOf(f), f.name);
    return qb;
  }

  private present(e: AdminEntityDef, raw: Record<string, unknown>): AdminRow {
    const out: AdminRow = {};
    for (const f of e.fields) {
      const v = raw[f.name];
      if (v === null || v === undefined) out[f.name] = f.list ? [] : null;
      else if (f.list)
        out[f.name] = String(v)
          .split(',')
          .map((x) => x.trim())
          .filter(Boolean);
      else if (f.type === 'boolean') out[f.name] = v === true || v === 1 || v === '1';
      else if (f.type === 'number') out[f.name] = Number(v);
      else if (f.type === 'date') out[f.name] = toDate(v);
      else out[f.name] = String(v);
    }
    return out;
  }

  async search(name: string, query: string, page: PageRequest): Promise<Page<AdminRow>> {
    const e = this.entity(name);
    const fields: SearchField[] = e.fields.map((f) => ({
      name: f.name,
      type: f.type,
      sql: this.sqlOf(f),
      freeText: f.freeText,
      values: f.values,
    }));
    const cond = compileQuery(e.name, query, fields);
    const countRow = await this.base(e)
      .select('COUNT(*)', 'n')
      .where(cond.sql, cond.params)
      .getRawOne<{ n: number | string }>();
    const total = Number(countRow?.n ?? 0);
    const qb = this.selectFields(e, this.base(e)).where(cond.sql, cond.params);
    for (const s of page.sort) {
      const f = e.fields.find((x) => x.name === s.field) as AdminField;
      qb.addOrderBy(this.sqlOf(f), s.direction);
    }
    qb.addOrderBy(this.sqlOf(e.fields[0]), 'ASC'); // stable pages
    qb.offset(page.offset).limit(page.size);
    const rows = await qb.getRawMany<Record<string, unknown>>();
    return toPage(
      rows.map((r) => this.present(e, r)),
      total,
      page,
    );
  }

  /** Paging options for an entity: every field is sortable; default as the entity says. */
  pagingOptions(name: string): PagingOptions {
    const e = this.entity(name);
    return {
      sortable: Object.fromEntries(e.fields.map((f) => [f.name, f.name])),
      defaultSort: [`${e.defaultSort.field},${e.defaultSort.direction.toLowerCase()}`],
    };
  }

  async findOne(name: string, id: string): Promise<AdminRow | null> {
    const e = this.entity(name);
    const raw = await this.selectFields(e, this.base(e))
      .where(`${this.sqlOf(e.fields[0])} = :id`, { id })
      .getRawOne<Record<string, unknown>>();
    return raw ? this.present(e, raw) : null;
  }

  // ------------------------------------------------------------------ update

  /**
   * Validates a PUT body against the entity's editable fields; a field `checkedByOwner` is handed
   * on as it came (the entity's `update` checks it). Each refusal with its key (fieldErrorKeys).
   */
  private patch(
    e: AdminEntityDef,
    body: unknown,
    id: string,
    existing: AdminRow | null,
  ): Record<string, unknown> {
    const creating = !existing;
    if (!body || typeof body !== 'object' || Array.isArray(body))
      throw new BadRequestError('Body must be a JSON object', 'body_not_object');
    const errors: Record<string, string> = {};
    const keys: Record<string, ErrorKey> = {};
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(body as Record<string, unknown>)) {
      const f = e.fields.find((x) => x.name === k);
      if (!f) {
        errors[k] = 'Unknown field';
        keys[k] = 'field_unknown';
        continue;
      }
      if (!f.editable) {
        // Read-only fields may be echoed back unchanged by an edit dialog; a change is refused.
        const same =
          k === 'id' ? v === id : !!existing && JSON.stringify(existing[k]) === JSON.stringify(v);
        if (!same) {
          errors[k] = 'is read-only';
          keys[k] = 'field_read_only';
        }
        continue;
      }
      if (f.checkedByOwner) {
        out[k] = v;
        continue;
      }
      if (v === null) {
        if (f.nullable) out[k] = null;
        else errors[k] = 'must not be null';
        continue;
      }
      if (f.list) {
        const list = Array.isArray(v) ? v : typeof v === 'string' ? v.split(',') : null;
        if (
          !list ||
          list.some((x) => typeof x !== 'string' || !(f.values ?? []).includes(x.trim()))
        ) {
          errors[k] = `must be a list of ${(f.values ?? []).join(', ')}`;
        } else out[k] = [...new Set(list.map((x: string) => x.trim()))];
        continue;
      }
      switch (f.type) {
        case 'boolean':
          if (typeof v !== 'boolean') errors[k] = 'must be true or false';
          else out[k] = v;
          break;
        case 'number':
          if (typeof v !== 'number' || !Number.isInteger(v) || v < 1 || v > INT_MAX)
            errors[k] = `must be a whole number from 1 to ${INT_MAX}`;
          else out[k] = v;
          break;
        case 'date':
          if (typeof v !== 'string' || Number.isNaN(Date.parse(v)))
            errors[k] = 'must be an ISO date-time';
          else if (!isStorableDate(v)) errors[k] = DATETIME_RANGE_MESSAGE;
          else out[k] = new Date(v);
          break;
        case 'enum':
          if (typeof v !== 'string' || !(f.values ?? []).includes(v))
            errors[k] = `must be one of ${(f.values ?? []).join(', ')}`;
          else out[k] = v;
          break;
        default:
          if (typeof v !== 'string') errors[k] = 'must be a string';
          else if (v.length > (f.maxLength ?? 2048))
            errors[k] = `must be at most ${f.maxLength ?? 2048} characters`;
          else out[k] = v;
      }
    }
    if (creating) {
      for (const f of e.fields) {
        if (f.editable && !f.nullable && out[f.name] === undefined && !errors[f.name]) {
          errors[f.name] = 'is required';
          keys[f.name] = 'field_required';
        }
      }
    }
    // Every other refusal is a value of the wrong form for its field.
    for (const k of Object.keys(errors)) keys[k] ??= 'field_invalid';
    if (Object.keys(errors).length) throw new ValidationFailedError(errors, keys);
    return out;
  }

  async update(
    name: string,
    id: string,
    body: unknown,
    actor: Actor,
    origin?: RequestOrigin,
  ): Promise<{ row: AdminRow; created: boolean }> {
    const e = this.entity(name);
    if (!e.update || !e.fields.some((f) => f.editable))
      throw new BadRequestError(`${e.name} cannot be edited`, 'entity_not_editable');
    const existing = await this.findOne(e.name, id);
    if (!existing && !e.create)
      throw new NotFoundError(`Entity ${e.name} not exists`, 'entity_not_exists');
    if (!existing && !UUID.test(id))
      throw new BadRequestError('A new entry needs a UUID as its id', 'entity_id_invalid');
    const p: AdminPatch = this.patch(e, body, id, existing);
    if (existing) await e.update(id, p, { actor, existing, origin });
    else await e.create?.(id, p, actor);
    this.log.write('info', 'admin', `${actor.username} changed ${e.name} ${id}`, {
      fields: Object.keys(p),
    });
    const row = await this.findOne(e.name, id);
    if (!row) throw new NotFoundError(`Entity ${e.name} not exists`, 'entity_not_exists');
    return { row, created: !existing };
  }

  // ------------------------------------------------------------------ delete

  async remove(name: string, id: string, actor: Actor): Promise<void> {
    const e = this.entity(name);
    const existing = await this.findOne(e.name, id);
    if (!existing) throw new NotFoundError(`Entity ${e.name} not exists`, 'entity_not_exists');
    if (!e.remove) throw new BadRequestError(`${e.name} cannot be deleted`, 'entity_not_deletable');
    await e.remove(id, actor);
    this.log.write('info', 'admin', `${actor.username} deleted ${e.name} ${id}`);
  }
}
