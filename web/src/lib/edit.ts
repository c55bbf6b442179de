import type { Schemas, Short } from '../api/client';

export type ShortChanges = Schemas['UpdateShortDto'];

/** The edit form's fields as typed (text inputs). */
export interface EditFields {
  url: string;
  code: string;
  name: string;
  /** German free text; '' = no expiry. */
  expiry: string;
  maxUses: string;
  /** '' keeps the password (or none). */
  password: string;
  removePassword: boolean;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** A date as the expiry field shows it and chrono reads it back: `31.12.2027 18:30` (local time). */
export function expiryText(iso: string | null): string {
  if (!iso) return '';
  const d = new Date(iso);
  return `${pad(d.getDate())}.${pad(d.getMonth() + 1)}.${d.getFullYear()} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** The form, prefilled from the short. */
export function fieldsOf(short: Short): EditFields {
  return {
    url: short.url ?? '',
    code: short.code,
    name: short.name ?? '',
    expiry: expiryText(short.expireAt),
    maxUses: short.maxUses === null ? '' : String(short.maxUses),
    password: '',
    removePassword: false,
  };
}

/**
 * Only what changed, as PATCH takes it: cleared expiry, limit and name as null; a new password, or
 * null to remove it. `expireAt` is the understood date of the expiry text (null when cleared);
 * an expiry text that was not changed keeps the stored date exactly.
 */
export function changesOf(short: Short, f: EditFields, expireAt: Date | null): ShortChanges {
  const changes: ShortChanges = {};
  if (short.url !== null && f.url.trim() !== short.url) changes.url = f.url.trim();
  if (f.code.trim() !== short.code) changes.code = f.code.trim();
  const name = f.name.trim() || null;
  if (name !== short.name) changes.name = name;
  if (f.expiry !== expiryText(short.expireAt)) {
    changes.expireAt = f.expiry.trim() ? (expireAt?.toISOString() ?? null) : null;
  }
  const maxUses = f.maxUses.trim() ? Number(f.maxUses) : null;
  if (maxUses !== short.maxUses) changes.maxUses = maxUses;
  if (f.removePassword) changes.password = null;
  else if (f.password) changes.password = f.password;
  return changes;
}
