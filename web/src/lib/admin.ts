import { locale } from '../i18n/current';
import type { Schemas } from '../api/client';

export type AdminEntity = Schemas['AdminEntityDto'];
export type AdminField = Schemas['AdminFieldDto'];
export type EntityName = AdminEntity['name'];
/** One row of an admin table: the entity's fields by name. */
export type AdminRow = Readonly<Record<string, unknown>>;

/** Formats a date-time for the tables (German, local time). */
export function formatAdminDate(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return d.toLocaleString(locale(), { dateStyle: 'medium', timeStyle: 'medium' });
}

/** The text of one table cell. */
export function cellText(
  field: Pick<AdminField, 'type'>,
  value: unknown,
  labels: { yes: string; no: string; empty: string },
): string {
  if (value === null || value === undefined || value === '') return labels.empty;
  if (Array.isArray(value)) return value.length ? value.join(', ') : labels.empty;
  if (field.type === 'boolean') return value ? labels.yes : labels.no;
  if (field.type === 'date' && typeof value === 'string') return formatAdminDate(value);
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** A value of the edit form: text inputs hold strings, switches booleans, role lists string arrays. */
export type FormValue = string | boolean | string[];

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

/** ISO date-time → the value of an `<input type="datetime-local">` (local time, minutes). */
export function toLocalInput(iso: string | null | undefined): string {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** The form values of the editable fields of a row (or the empty form of a new entry). */
export function toForm(entity: AdminEntity, row: AdminRow | null): Record<string, FormValue> {
  const form: Record<string, FormValue> = {};
  for (const f of entity.fields.filter((x) => x.editable)) {
    const v = row?.[f.name];
    if (f.type === 'boolean') form[f.name] = Boolean(v);
    else if (f.type === 'list') form[f.name] = Array.isArray(v) ? v.map(String) : [];
    else if (f.type === 'date') form[f.name] = toLocalInput(typeof v === 'string' ? v : null);
    else form[f.name] = v === null || v === undefined ? '' : String(v);
  }
  return form;
}

export type EditResult =
  { ok: true; body: Record<string, unknown> } | { ok: false; errors: Record<string, string> };

/** Messages of the client-side checks of the edit form. */
export interface EditMessages {
  required: string;
  wholeNumber: string;
  invalidDate: string;
}

/**
 * The PUT body from the edit form: only editable fields, only changed ones when editing
 * (everything when creating), typed as the server expects (numbers, ISO dates, null for empty).
 */
export function toBody(
  entity: AdminEntity,
  form: Record<string, FormValue>,
  row: AdminRow | null,
  texts: EditMessages,
): EditResult {
  const body: Record<string, unknown> = {};
  const errors: Record<string, string> = {};
  const before = row ? toForm(entity, row) : null;
  for (const f of entity.fields.filter((x) => x.editable)) {
    const v = form[f.name];
    if (before && JSON.stringify(before[f.name]) === JSON.stringify(v)) continue;
    if (f.type === 'boolean') {
      body[f.name] = Boolean(v);
      continue;
    }
    if (f.type === 'list') {
      body[f.name] = Array.isArray(v) ? v : [];
      continue;
    }
    const s = typeof v === 'string' ? v.trim() : '';
    if (s === '') {
      if (f.nullable) body[f.name] = null;
      else errors[f.name] = texts.required;
      continue;
    }
    if (f.type === 'number') {
      if (!/^\d+$/.test(s) || Number(s) < 1 || Number(s) > 2_147_483_647)
        errors[f.name] = texts.wholeNumber;
      else body[f.name] = Number(s);
    } else if (f.type === 'date') {
      const d = new Date(s);
      if (Number.isNaN(d.getTime())) errors[f.name] = texts.invalidDate;
      else body[f.name] = d.toISOString();
    } else body[f.name] = s;
  }
  return Object.keys(errors).length ? { ok: false, errors } : { ok: true, body };
}

/** The id of a row (the first field of every entity is its id). */
export function rowId(entity: AdminEntity, row: AdminRow): string {
  return String(row[entity.fields[0]?.name ?? 'id']);
}

/** `datetime-local` value → the ISO `startDate` of `/management/logs` (empty: no filter). */
export function logsStartDate(local: string): string | undefined {
  if (!local) return undefined;
  const d = new Date(local);
  return Number.isNaN(d.getTime()) ? undefined : d.toISOString();
}

/** Nested info (`/management/info`) as dotted key/value rows: `{app: {version}}` → `app.version`. */
export function flattenInfo(value: unknown, prefix = ''): Array<[string, string]> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return [[prefix || '–', Array.isArray(value) ? value.join(', ') : String(value)]];
  }
  const rows: Array<[string, string]> = [];
  for (const [k, v] of Object.entries(value as Record<string, unknown>))
    rows.push(...flattenInfo(v, prefix ? `${prefix}.${k}` : k));
  return rows;
}
