import { msg } from '../../i18n/current';

/** The German name of an admin field (the field's own name when there is none). */
export function fieldLabel(name: string): string {
  return msg.admin.fields[name] ?? name;
}

/** The German name of an admin entity (the entity's own name when there is none). */
export function entityLabel(name: string): string {
  return msg.admin.entities[name] ?? name;
}

/** How empty, true and false cells read. */
export const CELL_LABELS = {
  get yes() {
    return msg.admin.yes;
  },
  get no() {
    return msg.admin.no;
  },
  get empty() {
    return msg.admin.none;
  },
};
