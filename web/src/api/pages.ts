import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { StatisticsAnswer } from '../lib/statistics';
import type { Schemas } from './client';
import { call } from './call';

/** Link pages (CONTRACT "Marketing links"): the types of the OpenAPI document. */
export type PageDto = Schemas['PageDto'];
export type PageTheme = PageDto['theme'];
export type CreatePageBody = Schemas['CreatePageDto'];
export type UpdatePageBody = Schemas['UpdatePageDto'];
/** What the editor offers to link: a short of the page's space. */
export interface PickableShort {
  id: string;
  code: string;
  name: string | null;
  shortUrl: string;
}

/** A statistics range as the query names it (lib/statistics.ts rangeQuery). */
export interface PageStatisticsRange {
  from: string;
  to: string;
  granularity: string;
  tz: string;
}

const id = (s: string) => encodeURIComponent(s);

export const pagesApi = {
  list: () => call<PageDto[]>('GET', '/api/pages'),
  create: (body: CreatePageBody) => call<PageDto>('POST', '/api/pages', body),
  update: (page: string, body: UpdatePageBody) =>
    call<PageDto>('PATCH', `/api/pages/${id(page)}`, body),
  remove: (page: string) => call('DELETE', `/api/pages/${id(page)}`),
  /** A page's views over a range, in the shape of a short's statistics (views as `visits`). */
  statistics: (page: string, range: PageStatisticsRange) =>
    call<StatisticsAnswer>(
      'GET',
      `/api/pages/${id(page)}/statistics?${new URLSearchParams({ ...range }).toString()}`,
    ),
  /** The shorts of a space (own: team null), the newest 250. */
  shorts: async (team: string | null) => {
    const q = `size=250&sort=createdAt,desc${team ? `&team=${id(team)}` : ''}`;
    const page = await call<{ content: PickableShort[] }>('GET', `/api/code?${q}`);
    return page.content.map(({ id, code, name, shortUrl }) => ({ id, code, name, shortUrl }));
  },
};

export const PAGES_KEY = ['get', '/api/pages'] as const;

export function usePages() {
  return useQuery({ queryKey: PAGES_KEY, queryFn: pagesApi.list });
}

export function useSpaceShorts(team: string | null) {
  return useQuery({ queryKey: ['pages', 'shorts', team], queryFn: () => pagesApi.shorts(team) });
}

/** A page's views over a range; the last range stays while the next loads. */
export function usePageStatistics(page: string, range: PageStatisticsRange, enabled = true) {
  return useQuery({
    enabled,
    queryKey: ['pages', 'statistics', page, range],
    queryFn: () => pagesApi.statistics(page, range),
    placeholderData: keepPreviousData,
  });
}

function useReload() {
  const client = useQueryClient();
  return () => void client.invalidateQueries({ queryKey: PAGES_KEY });
}

export function useSavePage() {
  const reload = useReload();
  return useMutation({
    mutationFn: ({ page, body }: { page: string | null; body: CreatePageBody }) => {
      if (page === null) return pagesApi.create(body);
      // A page stays in its space: PATCH takes every field but `team`.
      const rest: UpdatePageBody = { ...body };
      delete (rest as CreatePageBody).team;
      return pagesApi.update(page, rest);
    },
    onSuccess: reload,
  });
}

export function useDeletePage() {
  const reload = useReload();
  return useMutation({ mutationFn: pagesApi.remove, onSuccess: reload });
}
