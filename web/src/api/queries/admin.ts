import { keepPreviousData, useQueryClient } from '@tanstack/react-query';
import type { EntityName } from '../../lib/admin';
import { pageQuery, type SortState } from '../../lib/table';
import { $api } from '../query';

/** Every search of every admin entity (`POST /api/admin/entity/{entity}/search`). */
export const ENTITY_SEARCH_KEY = ['post', '/api/admin/entity/{entity}/search'] as const;

/** The entities of the admin API and their fields (`GET /api/admin/entity`). */
export function useAdminEntities() {
  return $api.useQuery('get', '/api/admin/entity');
}

export interface EntitySearch {
  query: string;
  page: number;
  size: number;
  sort: SortState | null;
}

/** One page of an entity's search; the last page stays on screen while the next one loads. */
export function useEntitySearch(entity: EntityName, { query, page, size, sort }: EntitySearch) {
  return $api.useQuery(
    'post',
    '/api/admin/entity/{entity}/search',
    {
      params: { path: { entity }, query: pageQuery(page, size, sort) },
      body: { query_string: { query } },
    },
    { placeholderData: keepPreviousData },
  );
}

/** Creates or updates an entry; the open table loads again. */
export function useSaveEntity() {
  const client = useQueryClient();
  return $api.useMutation('put', '/api/admin/entity/{entity}/{id}', {
    onSuccess: () => void client.invalidateQueries({ queryKey: ENTITY_SEARCH_KEY }),
  });
}

/** Deletes an entry; the open table loads again. */
export function useDeleteEntity() {
  const client = useQueryClient();
  return $api.useMutation('delete', '/api/admin/entity/{entity}/{id}', {
    onSuccess: () => void client.invalidateQueries({ queryKey: ENTITY_SEARCH_KEY }),
  });
}
