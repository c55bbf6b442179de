import { keepPreviousData, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { pageQuery, type SortState } from '../../lib/table';
import { tagListQuery } from '../../lib/tags-api';
import { $api } from '../query';

/** Every page of the own-shorts list (`GET /api/code`), whatever its parameters. */
export const OWN_SHORTS_KEY = ['get', '/api/code'] as const;
/** Every short's details (`GET /api/code/{id}?redirect=false`). */
export const SHORT_KEY = ['get', '/api/code/{id}'] as const;

export interface OwnShortsQuery {
  page: number;
  size: number;
  sort: SortState;
  search: string;
  /** '' all; a host; `DEFAULT` this service's host (the server's own-list filter). */
  domain: string;
  /** Only the shorts whose link health is broken (`health=broken`). */
  broken?: boolean;
  /** A team's shorts (`?team=`, members only); none: the caller's own space. */
  team?: string | null;
  /** Only the shorts that carry all of these tags (`?tag=a&tag=b`). */
  tags?: readonly string[];
}

/** One page of the caller's own shorts; the last page stays on screen while the next one loads. */
export function useOwnShorts({
  page,
  size,
  sort,
  search,
  domain,
  broken,
  team,
  tags = [],
}: OwnShortsQuery) {
  const filters = {
    ...(search ? { search } : {}),
    ...(domain ? { domain } : {}),
    ...(broken ? { health: 'broken' as const } : {}),
    ...(team ? { team } : {}),
    // Every tag (GET /api/code?tag=a&tag=b: shorts carrying all of them).
    ...tagListQuery(tags),
  };
  return $api.useQuery(
    'get',
    '/api/code',
    { params: { query: { ...pageQuery(page, size, sort), ...filters } } },
    { placeholderData: keepPreviousData },
  );
}

/**
 * `?domain=` of the calls a short's pages make: on this service's host it names the own domain whose
 * code is meant (an owner's short on a domain, opened from the own list); none: the main host's.
 */
export const onDomain = (domain?: string | null) => (domain ? { domain } : {});

/** A short's details by code (on `domain`, when given). */
export function useShort(code: string, domain?: string | null) {
  return $api.useQuery('get', '/api/code/{id}', {
    params: { path: { id: code }, query: { redirect: 'false', ...onDomain(domain) } },
  });
}

/** The preview (title, description, image) of a short's target. */
export function useShortMeta(code: string, domain?: string | null) {
  return $api.useQuery('get', '/api/code/{code}/metadata', {
    params: { path: { code }, query: onDomain(domain) },
  });
}

/** After deletes: the list and the details show what the server has now. */
export function invalidateShorts(client: QueryClient): Promise<void> {
  return Promise.all([
    client.invalidateQueries({ queryKey: OWN_SHORTS_KEY }),
    client.invalidateQueries({ queryKey: SHORT_KEY }),
  ]).then(() => undefined);
}

/**
 * Deletes shorts by id, all at once; resolves with whether every delete succeeded. The list and
 * the details are invalidated once afterwards (not awaited: a dialog can close at once).
 */
export function useDeleteShorts(): (ids: readonly string[]) => Promise<boolean> {
  const client = useQueryClient();
  const { mutateAsync } = $api.useMutation('delete', '/api/code/{id}');
  return async (ids) => {
    const results = await Promise.allSettled(
      ids.map((id) => mutateAsync({ params: { path: { id } } })),
    );
    void invalidateShorts(client);
    return results.every((r) => r.status === 'fulfilled');
  };
}

/** Changes a short (PATCH /api/code/{id}); the list and the details are reloaded afterwards. */
export function useUpdateShort() {
  const client = useQueryClient();
  return $api.useMutation('patch', '/api/code/{id}', {
    onSuccess: () => void invalidateShorts(client),
  });
}

/** Checks a short's target now (POST /api/code/{id}/health); the list and the details follow. */
export function useCheckHealth() {
  const client = useQueryClient();
  return $api.useMutation('post', '/api/code/{id}/health', {
    onSuccess: () => void invalidateShorts(client),
  });
}

/** The reports of a short, for its owner and admins (GET /api/code/{id}/reports). */
export function useShortReports(id: string, enabled: boolean) {
  return $api.useQuery('get', '/api/code/{id}/reports', { params: { path: { id } } }, { enabled });
}
