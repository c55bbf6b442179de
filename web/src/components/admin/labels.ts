import { msg } from '../../i18n/current';
import type { Messages } from '../../i18n/text';

/** The German name of an admin field (the field's own name when there is none). */
export function fieldLabel(name: string): string {
  return msg.admin.fields[name] ?? name;
}

/** The German name of an admin entity (the entity's own name when there is none). */
export function entityLabel(name: string): string {
  return msg.admin.entities[name] ?? name;
}

/** How empty, true and false cells read. */
export function cellLabels(m: Messages = msg): { yes: string; no: string; empty: string } {
  return { yes: m.admin.yes, no: m.admin.no, empty: m.admin.none };
}

/** An id field (`id`, `ownerId`, `shortId`…): a UUID nobody reads first. */
export function isIdField(name: string): boolean {
  return name === 'id' || /[a-z]Id$/.test(name);
}

/** The fields in the order the admin reads them: the named ones first, the ids at the end. */
export function displayFields<F extends { name: string }>(fields: readonly F[]): F[] {
  return [...fields.filter((f) => !isIdField(f.name)), ...fields.filter((f) => isIdField(f.name))];
}
