import { de } from '../../i18n/de';

/** The German name of an admin field (the field's own name when there is none). */
export function fieldLabel(name: string): string {
  return de.admin.fields[name] ?? name;
}

/** The German name of an admin entity (the entity's own name when there is none). */
export function entityLabel(name: string): string {
  return de.admin.entities[name] ?? name;
}

/** How empty, true and false cells read. */
export const CELL_LABELS = { yes: de.admin.yes, no: de.admin.no, empty: de.admin.none };
