import type { Schemas } from './client';
import { call } from './call';

/** UTM templates (CONTRACT "Marketing links", bullet "UTM"): the generated schema's shapes. */
export type UtmTemplate = Schemas['UtmTemplateDto'];
export type CreateUtmTemplateBody = Schemas['CreateUtmTemplateDto'];

/** The calls, free of react-query (the start page's create form uses them too). */
export const utmApi = {
  /** The caller's own templates and his teams'. */
  list: () => call<UtmTemplate[]>('GET', '/api/utm-templates'),
  create: (body: CreateUtmTemplateBody) => call<UtmTemplate>('POST', '/api/utm-templates', body),
  remove: (id: string) => call('DELETE', `/api/utm-templates/${encodeURIComponent(id)}`),
};

/** The templates of one space (`team` null: the caller's own). */
export function inSpace(templates: readonly UtmTemplate[], team: string | null): UtmTemplate[] {
  return templates.filter((t) => (t.team?.id ?? null) === team);
}
