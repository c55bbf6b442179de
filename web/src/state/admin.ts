import { proxy } from 'valtio';
import { api, unwrap, type Schemas } from '../api/client';
import type { AdminEntity, AdminRow, EntityName } from '../lib/admin';

type Loggers = Schemas['LoggersDto'];
export type DialogType = 'edit' | 'create';

/** SPEC §3 admin state: entities, showSidebar, logger (groups, levels, loggers), entityDialog. */
export const admin = proxy({
  entities: [] as AdminEntity[],
  entitiesLoaded: false,
  entitiesError: null as string | null,
  showSidebar: true,
  logger: {
    groups: {} as Loggers['groups'],
    levels: [] as string[],
    loggers: {} as Loggers['loggers'],
  },
  entityDialog: {
    open: false,
    entity: null as EntityName | null,
    /** The entry being edited (null for a new one). */
    edit: null as AdminRow | null,
    type: 'edit' as DialogType,
  },
  /** Bumped after a change so that the open table loads again. */
  version: 0,
});

export async function loadEntities(): Promise<void> {
  try {
    admin.entities = await unwrap(api.GET('/api/admin/entity'));
    admin.entitiesError = null;
  } catch (err) {
    admin.entitiesError =
      err && typeof err === 'object' && 'detail' in err
        ? String((err as { detail: unknown }).detail)
        : 'error';
  } finally {
    admin.entitiesLoaded = true;
  }
}

export async function loadLoggers(): Promise<void> {
  const l = await unwrap(api.GET('/management/loggers'));
  admin.logger = { groups: l.groups, levels: l.levels, loggers: l.loggers };
}

/** POST /management/loggers/{logger}; null resets to the default. */
export async function setLoggerLevel(logger: string, level: string | null): Promise<void> {
  await unwrap(
    api.POST('/management/loggers/{logger}', {
      params: { path: { logger } },
      body: { configuredLevel: level as Schemas['SetLoggerLevelDto']['configuredLevel'] },
    }),
  );
  await loadLoggers();
}

export function openEntityDialog(
  entity: EntityName,
  row: AdminRow | null,
  type: DialogType = row ? 'edit' : 'create',
): void {
  admin.entityDialog = { open: true, entity, edit: row, type };
}

export function closeEntityDialog(): void {
  admin.entityDialog.open = false;
}

export function toggleSidebar(): void {
  admin.showSidebar = !admin.showSidebar;
}
