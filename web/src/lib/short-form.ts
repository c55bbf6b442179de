import {
  type FieldType,
  SHORT_FIELD_NAMES,
  SHORT_FIELDS,
  type ShortFieldName,
  type ShortFieldSpec,
} from '@shared/short-fields';
import type { RedirectRule } from '@shared/redirect-rules';
import type { CreateShort, Schemas, Short } from '../api/client';
import { draftsToRules, rulesToDrafts, sameRules, type RuleDraft } from './rules';

/**
 * The rules of the short's form (create and edit, components/ShortFields.tsx), driven by the field
 * table (src/shared/short-fields.ts): which fields a caller may set, what each input holds and how
 * its text becomes the value the API takes.
 */

export type ShortChanges = Schemas['UpdateShortDto'];
export type FormMode = 'create' | 'edit';

/** The fields of the `rules` type (the rules editor), not text inputs. */
type RulesFieldName = {
  [K in ShortFieldName]: (typeof SHORT_FIELDS)[K]['type'] extends 'rules' ? K : never;
}[ShortFieldName];
/** The fields of the `preview` type (the social preview's section), not text inputs. */
type PreviewFieldName = {
  [K in ShortFieldName]: (typeof SHORT_FIELDS)[K]['type'] extends 'preview' ? K : never;
}[ShortFieldName];
/** The fields that are text inputs. */
type TextFieldName = Exclude<ShortFieldName, RulesFieldName | PreviewFieldName>;

/** The social preview's parts as typed ('' for empty). */
export interface PreviewDraft {
  title: string;
  description: string;
  image: string;
}

/** Whether a form value is a preview's draft (not text, not the rules' drafts). */
export const isPreviewDraft = (v: unknown): v is PreviewDraft =>
  typeof v === 'object' && !Array.isArray(v);

/** A preview's draft as the API takes it: the parts typed (trimmed), null when all are empty. */
function previewOfDraft(draft: PreviewDraft): Partial<PreviewDraft> | null {
  const parts = Object.entries(draft)
    .map(([k, v]) => [k, v.trim()])
    .filter(([, v]) => v);
  return parts.length ? Object.fromEntries(parts) : null;
}

/**
 * The form's fields as typed (text inputs), by the field table's names; `expireAt` is German free
 * text ('' = no expiry), `password` '' keeps the password (or none); `rules` the editor's drafts;
 * `preview` its parts' texts.
 */
export type FormValues = Record<TextFieldName, string> &
  Record<RulesFieldName, RuleDraft[]> &
  Record<PreviewFieldName, PreviewDraft> & { removePassword: boolean };

const spec = (name: ShortFieldName): ShortFieldSpec => SHORT_FIELDS[name];

/** The fields a caller may set, in the table's order: anonymous callers only those `setBy: 'anonymous'`. */
export function formFields(loggedIn: boolean): ShortFieldName[] {
  // The team is the space the user works in (the space switcher) and a move is its own dialog;
  // the QR style is the QR dialog's.
  return SHORT_FIELD_NAMES.filter(
    (name) =>
      spec(name).type !== 'team' &&
      spec(name).type !== 'qr-style' &&
      (loggedIn || spec(name).setBy === 'anonymous'),
  );
}

/** Whether the input must be filled: needed on create, or (edit) a field that cannot be cleared. */
export function isRequired(name: ShortFieldName, mode: FormMode): boolean {
  return spec(name).required === true || (mode === 'edit' && !spec(name).nullable);
}

/**
 * A field's pattern as an HTML `pattern` attribute: browsers anchor it themselves and compile it
 * with the `v` flag, where a `-` inside a class must be escaped.
 */
export function htmlPattern(pattern: string | undefined): string | undefined {
  if (pattern === undefined) return undefined;
  return pattern
    .replace(/^\^/, '')
    .replace(/\$$/, '')
    .replace(/(?<!\\)-\]/g, '\\-]');
}

const pad = (n: number) => String(n).padStart(2, '0');

/** A date as the expiry field shows it and chrono reads it back: `31.12.2027 18:30` (local time). */
export function expiryText(iso: string | null): string {
  if (!iso) return '';
  const d = new Date(iso);
  return `${pad(d.getDate())}.${pad(d.getMonth() + 1)}.${d.getFullYear()} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** The empty create form: every input of a short without values. */
export const emptyValues = (): FormValues => fieldsOf({} as Short);

/**
 * What each input of a field type shows of the short's value: its text, the expiry as typed, a
 * number as text, the rules as the editor's drafts ('' and [] for none).
 */
const INPUT_OF: {
  [T in FieldType]: (
    value: unknown,
  ) => T extends 'rules' ? RuleDraft[] : T extends 'preview' ? PreviewDraft : string;
} = {
  url: (v) => (v as string | null) ?? '',
  code: (v) => (v as string | null) ?? '',
  text: (v) => (v as string | null) ?? '',
  domain: (v) => (v as string | null) ?? '',
  password: () => '',
  'date-time': (v) => expiryText((v as string | null) ?? null),
  integer: (v) => (v === null || v === undefined ? '' : String(v as number)),
  rules: (v) => rulesToDrafts(v as RedirectRule[] | undefined),
  team: (v) => (v as { id: string } | null | undefined)?.id ?? '',
  tags: (v) => tagsText(v as string[] | undefined),
  preview: (v) => {
    const p = (v ?? {}) as Partial<Record<keyof PreviewDraft, string | null>>;
    return { title: p.title ?? '', description: p.description ?? '', image: p.image ?? '' };
  },
  // Not in the form (the QR dialog saves it).
  'qr-style': () => '',
};

/** Tags as the form's text shows them: comma-separated ('' for none). */
function tagsText(tags: readonly string[] | null | undefined): string {
  return (tags ?? []).join(', ');
}

/** The tags of the form's text: split at commas, trimmed, empty ones left out (the server checks them). */
function tagsOf(text: string): string[] {
  return text
    .split(',')
    .map((t) => t.trim())
    .filter((t) => t !== '');
}

/**
 * The edit form, prefilled from the short by the field table: each field's shown value by its
 * type (the password is never shown: '' keeps it).
 */
export function fieldsOf(short: Short): FormValues {
  const shown = short as unknown as Record<string, unknown>;
  const values = Object.fromEntries(
    SHORT_FIELD_NAMES.map((name) => [name, INPUT_OF[spec(name).type](shown[name])]),
  ) as unknown as FormValues;
  return { ...values, removePassword: false };
}

/**
 * A field's text as the API takes it, by the field's type: trimmed text, the understood expiry
 * (`expireAt`), a number; an empty input is null (none, or on edit: cleared), except for a field
 * that is needed.
 */
function valueOf(
  name: ShortFieldName,
  values: FormValues,
  expireAt: Date | null,
): string | number | string[] | RedirectRule[] | Partial<PreviewDraft> | null {
  const s = spec(name);
  const input = values[name];
  if (isPreviewDraft(input)) return previewOfDraft(input);
  if (typeof input !== 'string') {
    // The rules editor's drafts; none is null (no rules).
    return input.length === 0 ? null : draftsToRules(input);
  }
  const text = input;
  switch (s.type) {
    case 'password':
      return text === '' ? null : text;
    case 'date-time':
      return text.trim() === '' ? null : (expireAt?.toISOString() ?? null);
    case 'integer':
      return text.trim() === '' ? null : Number(text);
    case 'domain':
      // '' is this service's own host.
      return text === '' ? null : text;
    case 'team':
      return text === '' ? null : text;
    case 'tags': {
      // None is null (no tags; on edit: removed).
      const tags = tagsOf(text);
      return tags.length ? tags : null;
    }
    case 'rules':
    case 'preview':
    case 'qr-style': // not in the form
      return null; // drafts, read above
    case 'url':
    case 'code':
    case 'text': {
      const v = text.trim();
      return v === '' && !s.required ? null : v;
    }
  }
}

/** The create payload: every field the caller may set (null where empty). */
export function createBody(
  values: FormValues,
  expireAt: Date | null,
  loggedIn: boolean,
): CreateShort {
  const body: Record<string, unknown> = {};
  for (const name of formFields(loggedIn)) body[name] = valueOf(name, values, expireAt);
  return body as unknown as CreateShort;
}

/**
 * Only what changed, as PATCH takes it: cleared expiry, limit and name as null; a new password, or
 * null to remove it. `expireAt` is the understood date of the expiry text (null when cleared); an
 * expiry text that was not changed keeps the stored date exactly. A field the server did not show
 * (a hidden url) is not sent.
 */
export function changesOf(short: Short, values: FormValues, expireAt: Date | null): ShortChanges {
  const changes: Record<string, unknown> = {};
  // The team changes only through the move dialog (never as a side effect of an edit), the QR
  // style through the QR dialog: neither is a field of the form.
  for (const name of formFields(true)) {
    const type = spec(name).type;
    const input = values[name];
    if (isPreviewDraft(input)) {
      // The preview: all of its parts when any differs (null removes it).
      const next = previewOfDraft(input);
      const shown = INPUT_OF.preview((short as unknown as Record<string, unknown>)[name]);
      if (JSON.stringify(next) !== JSON.stringify(previewOfDraft(shown))) changes[name] = next;
      continue;
    }
    if (typeof input !== 'string') {
      // The rules: all of them when anything differs ([] removes them).
      if (!sameRules(input, short.rules)) changes[name] = draftsToRules(input);
      continue;
    }
    if (type === 'tags') {
      // All of them when the list differs ([] and null: none).
      const shown = (short as unknown as Record<string, string[] | undefined>)[name];
      if (tagsOf(input).join(',') !== (shown ?? []).join(','))
        changes[name] = valueOf(name, values, expireAt);
      continue;
    }
    if (type === 'password') {
      // Never shown, so never compared: a new one, or its removal.
      if (values.removePassword) changes[name] = null;
      else if (input) changes[name] = input;
      continue;
    }
    const current =
      (short as unknown as Record<ShortFieldName, string | number | null>)[name] ?? null;
    if (current === null && !spec(name).nullable) continue;
    if (type === 'date-time') {
      if (input !== expiryText(current as string | null))
        changes[name] = valueOf(name, values, expireAt);
      continue;
    }
    const next = valueOf(name, values, expireAt);
    if (next !== current) changes[name] = next;
  }
  return changes as ShortChanges;
}
