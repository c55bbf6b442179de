import type { ShortFieldName } from '@shared/short-fields';
import type { FormValues } from './short-form';

/**
 * The create form's 'Erweitert' group (logged in): the fields a first short rarely needs, folded
 * away. Whether it was open is remembered: for the session in memory, and across visits in
 * localStorage only with the design consent, like the theme and the last domain (lib/domains.ts).
 */

/** The fields in the group, in the form's order. */
export const ADVANCED_FIELDS: readonly ShortFieldName[] = [
  'maxUses',
  'domain',
  'expiredUrl',
  'rules',
];

export const isAdvanced = (name: ShortFieldName) => ADVANCED_FIELDS.includes(name);

/** localStorage key of the group's state ('open' or 'closed'). */
export const ADVANCED_KEY = 'createAdvanced';

/** The state chosen in this visit (when storing it was not allowed). */
let chosen: boolean | undefined;

/** Whether the group starts open: this visit's choice, else the stored one, else closed. */
export function readAdvancedOpen(): boolean {
  if (chosen !== undefined) return chosen;
  try {
    return localStorage.getItem(ADVANCED_KEY) === 'open';
  } catch {
    return false;
  }
}

/** Remembers the group's state: always for this visit, in localStorage only when `allowed`. */
export function rememberAdvancedOpen(open: boolean, allowed: boolean): void {
  chosen = open;
  try {
    if (allowed) localStorage.setItem(ADVANCED_KEY, open ? 'open' : 'closed');
    else localStorage.removeItem(ADVANCED_KEY);
  } catch {
    // no storage: remembered for this visit only
  }
}

/** Forgets this visit's choice (tests). */
export function resetAdvancedChoice(): void {
  chosen = undefined;
}

/** How many of the group's fields hold something (said beside the closed group). */
export function advancedSetCount(values: FormValues): number {
  return ADVANCED_FIELDS.filter((name) => {
    const v = values[name];
    // Texts and the rules' drafts (the preview has a section of its own).
    return typeof v === 'string' ? v.trim() !== '' : (v as unknown[]).length > 0;
  }).length;
}
