import { proxy } from 'valtio';
import type { AdminRow, EntityName } from '../lib/admin';

export type DialogType = 'edit' | 'create';

/**
 * The admin area's UI state: the sidebar and the edit dialog. The entities, their rows and the
 * loggers are server data (queries in api/queries/admin.ts and management.ts).
 */
export const admin = proxy({
  showSidebar: true,
  entityDialog: {
    open: false,
    entity: null as EntityName | null,
    /** The entry being edited (null for a new one). */
    edit: null as AdminRow | null,
    type: 'edit' as DialogType,
    /** Counts the openings: the dialog fills its form anew for each one. */
    seq: 0,
  },
});

export function openEntityDialog(
  entity: EntityName,
  row: Readonly<AdminRow> | null,
  type: DialogType = row ? 'edit' : 'create',
): void {
  const seq = admin.entityDialog.seq + 1;
  admin.entityDialog = { open: true, entity, edit: row ? { ...row } : null, type, seq };
}

export function closeEntityDialog(): void {
  admin.entityDialog.open = false;
}

export function toggleSidebar(): void {
  admin.showSidebar = !admin.showSidebar;
}
