import { Injectable } from '@nestjs/common';
import { DataSource, type SelectQueryBuilder } from 'typeorm';
import type { Actor } from '../common/actor';
import { BadRequestError, NotFoundError, ValidationFailedError } from '../common/errors';
import { BlacklistService } from '../blacklist/blacklist.service';
import type { BlacklistKind } from '../blacklist/blacklist.entity';
import { CodeService } from '../code/code.service';
import { LogService } from '../logging/log.service';
import { ReportEntity, type ReportState } from '../report/report.entity';
import { ReportService } from '../report/report.service';
import { UserEntity } from '../account/user.entity';
import { ShortEntity } from '../code/short.entity';
import {
  ADMIN_ENTITIES,
  type AdminEntityDef,
  type AdminField,
  findEntity,
  ROLES,
} from './entities';
import { type Page, type PageRequest, type PagingOptions, toPage } from '../common/paging';
import { compileQuery, type SearchField } from './query';
import { DATETIME_RANGE_MESSAGE, INT_MAX, isStorableDate } from '../common/db-limits';

export type AdminRow = Record<string, unknown>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function toDate(v: unknown): string | null {
  if (v === null || v === undefined) return null;
  if (v instanceof Date) return v.toISOString();
  const s = String(v);
  // SQLite stores UTC as "YYYY-MM-DD HH:MM:SS.SSS".
  const d = new Date(/^\d{4}-\d{2}-\d{2} /.test(s) ? `${s.replace(' ', 'T')}Z` : s);
  return Number.isNaN(d.getTime()) ? s : d.toISOString();
}

/**
 * The generic admin entity API: list entity descriptions, search with the query language, and
 * change or delete single entries. Writes go through the owning services where they have rules
 * (blacklist normalisation, follow-cache invalidation, danger flag and report states).
 */
@Injectable()
export class AdminService {
  constructor(
    private readonly ds: DataSource,
    private readonly blacklist: BlacklistService,
    private readonly codes: CodeService,
    private readonly reports: ReportService,
    private readonly log: LogService,
  ) {}

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
    return ADMIN_ENTITIES.map((e) => ({
      name: e.name,
      description: e.description,
      creatable: !!e.creatable,
      deletable: e.deletable,
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
    const e = findEntity(name);
    if (!e)
      throw new NotFoundError(
        `Unknown entity "${name}"; known: ${ADMIN_ENTITIES.map((x) => x.name).join(', ')}`,
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
    let qb = this.ds.createQueryBuilder().from(e.table, e.alias) as SelectQueryBuilder<AdminRow>;
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

  /** Validates a PUT body against the entity's editable fields. */
  private patch(
    e: AdminEntityDef,
    body: unknown,
    id: string,
    existing: AdminRow | null,
  ): Record<string, unknown> {
    const creating = !existing;
    if (!body || typeof body !== 'object' || Array.isArray(body))
      throw new BadRequestError('Body must be a JSON object');
    const errors: Record<string, string> = {};
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(body as Record<string, unknown>)) {
      const f = e.fields.find((x) => x.name === k);
      if (!f) {
        errors[k] = 'Unknown field';
        continue;
      }
      if (!f.editable) {
        // Read-only fields may be echoed back unchanged by an edit dialog; a change is refused.
        const same =
          k === 'id' ? v === id : !!existing && JSON.stringify(existing[k]) === JSON.stringify(v);
        if (!same) errors[k] = 'is read-only';
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
        if (f.editable && !f.nullable && out[f.name] === undefined && !errors[f.name])
          errors[f.name] = 'is required';
      }
    }
    if (Object.keys(errors).length) throw new ValidationFailedError(errors);
    return out;
  }

  async update(
    name: string,
    id: string,
    body: unknown,
    actor: Actor,
  ): Promise<{ row: AdminRow; created: boolean }> {
    const e = this.entity(name);
    if (!e.fields.some((f) => f.editable)) throw new BadRequestError(`${e.name} cannot be edited`);
    const existing = await this.findOne(e.name, id);
    if (!existing && !e.creatable)
      throw new NotFoundError(`Entity ${e.name} not exists`, 'entity_not_exists');
    if (!existing && !UUID.test(id))
      throw new BadRequestError('A new entry needs a UUID as its id');
    const p = this.patch(e, body, id, existing);
    switch (e.name) {
      case 'users':
        await this.updateUser(id, p, actor);
        break;
      case 'shorts':
        await this.updateShort(id, p, existing as AdminRow);
        break;
      case 'reports':
        if (p.state !== undefined)
          await this.ds
            .getRepository(ReportEntity)
            .update({ id }, { state: p.state as ReportState });
        break;
      case 'blacklist': {
        const patch = {
          kind: p.kind as BlacklistKind | undefined,
          value: p.value as string | undefined,
          reason: p.reason as string | null | undefined,
        };
        if (existing) await this.blacklist.update(id, patch);
        else
          await this.blacklist.add(
            patch.kind as BlacklistKind,
            patch.value as string,
            patch.reason ?? null,
            id,
          );
        break;
      }
      default:
        throw new BadRequestError(`${e.name} cannot be edited`);
    }
    this.log.write('info', 'admin', `${actor.username} changed ${e.name} ${id}`, {
      fields: Object.keys(p),
    });
    const row = await this.findOne(e.name, id);
    if (!row) throw new NotFoundError(`Entity ${e.name} not exists`, 'entity_not_exists');
    return { row, created: !existing };
  }

  private async updateUser(id: string, p: Record<string, unknown>, actor: Actor): Promise<void> {
    const set: Partial<UserEntity> = {};
    if (p.activated !== undefined) {
      if (id === actor.id && p.activated === false)
        throw new BadRequestError('You cannot deactivate your own account');
      set.activated = p.activated as boolean;
    }
    if (p.roles !== undefined) {
      const roles = p.roles as string[];
      if (!roles.includes('ROLE_USER')) roles.unshift('ROLE_USER');
      if (id === actor.id && !roles.includes('ROLE_ADMIN'))
        throw new BadRequestError('You cannot remove your own admin role');
      set.roles = ROLES.filter((r) => roles.includes(r)).join(',');
    }
    if (Object.keys(set).length) await this.ds.getRepository(UserEntity).update({ id }, set);
  }

  private async updateShort(
    id: string,
    p: Record<string, unknown>,
    existing: AdminRow,
  ): Promise<void> {
    const shorts = this.ds.getRepository(ShortEntity);
    const set: Partial<ShortEntity> = {};
    if (p.name !== undefined) set.name = p.name === null ? null : String(p.name).slice(0, 100);
    if (p.maxUses !== undefined) set.maxUses = p.maxUses as number | null;
    if (p.expireAt !== undefined) set.expireAt = p.expireAt as Date | null;
    if (Object.keys(set).length) await shorts.update({ id }, set);
    if (p.dangerous !== undefined) {
      await this.reports.setDangerous(
        id,
        p.dangerous as boolean,
        (p.dangerReason as string | null | undefined) ?? (existing.dangerReason as string | null),
      );
    } else if (p.dangerReason !== undefined && existing.dangerous) {
      await shorts.update({ id }, { dangerReason: p.dangerReason as string | null });
    }
    this.codes.invalidate(existing.code as string);
  }

  // ------------------------------------------------------------------ delete

  async remove(name: string, id: string, actor: Actor): Promise<void> {
    const e = this.entity(name);
    const existing = await this.findOne(e.name, id);
    if (!existing) throw new NotFoundError(`Entity ${e.name} not exists`, 'entity_not_exists');
    switch (e.name) {
      case 'users': {
        if (id === actor.id) throw new BadRequestError('You cannot delete your own account');
        const codes = await this.ds
          .createQueryBuilder()
          .select('s.code', 'code')
          .from('shorts', 's')
          .where('s.owner_id = :id', { id })
          .getRawMany<{ code: string }>();
        await this.ds.getRepository(UserEntity).delete({ id });
        for (const c of codes) this.codes.invalidate(c.code);
        break;
      }
      case 'shorts':
        await this.codes.delete(id, actor);
        break;
      case 'blacklist':
        await this.blacklist.remove(id);
        break;
      case 'reports':
        await this.ds.getRepository(ReportEntity).delete({ id });
        break;
      case 'apikeys':
        await this.ds
          .createQueryBuilder()
          .delete()
          .from('api_keys')
          .where('id = :id', { id })
          .execute();
        break;
      default:
        throw new BadRequestError(`${e.name} cannot be deleted`);
    }
    this.log.write('info', 'admin', `${actor.username} deleted ${e.name} ${id}`);
  }
}
