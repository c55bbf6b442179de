import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { usableHosts } from '../../lib/domains';
import { $api } from '../query';

/** The caller's domains (`GET /api/domains`): the shared ones and the own (admins: all). */
export const DOMAINS_KEY = ['get', '/api/domains'] as const;

export function useDomains() {
  return $api.useQuery('get', '/api/domains');
}

const NONE: readonly string[] = [];

/**
 * The hosts the caller may put a short on (verified and enabled), from the cached domains list;
 * none while it loads or when it cannot be loaded.
 */
export function useUsableDomains(): readonly string[] {
  const { data } = useDomains();
  return useMemo(() => (data ? usableHosts(data) : NONE), [data]);
}

const reload = (client: QueryClient) => void client.invalidateQueries({ queryKey: DOMAINS_KEY });

/** Adds a domain (`POST /api/domains`); the list is reloaded afterwards. */
export function useCreateDomain() {
  const client = useQueryClient();
  return $api.useMutation('post', '/api/domains', { onSuccess: () => reload(client) });
}

/** Changes a domain's redirects (`PATCH /api/domains/{id}`). */
export function useUpdateDomain() {
  const client = useQueryClient();
  return $api.useMutation('patch', '/api/domains/{id}', { onSuccess: () => reload(client) });
}

/** Checks a domain's TXT record now (`POST /api/domains/{id}/verify`); answers the domain. */
export function useVerifyDomain() {
  const client = useQueryClient();
  return $api.useMutation('post', '/api/domains/{id}/verify', { onSuccess: () => reload(client) });
}

/** Deletes a domain (`DELETE /api/domains/{id}`; 409 domain_in_use while shorts use it). */
export function useDeleteDomain() {
  const client = useQueryClient();
  return $api.useMutation('delete', '/api/domains/{id}', { onSuccess: () => reload(client) });
}
