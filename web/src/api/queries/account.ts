import { useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError } from '../errors';
import { $api } from '../query';

const apiKeyQuery = $api.queryOptions('get', '/api/self/apikey');
/** The caller's API key (`GET /api/self/apikey`). */
export const API_KEY_KEY = apiKeyQuery.queryKey;

/** The caller's API key, or null when there is none yet (the server answers 404). */
export function useApiKey() {
  return useQuery({
    queryKey: API_KEY_KEY,
    queryFn: async (ctx) => {
      try {
        return (await apiKeyQuery.queryFn(ctx)).id;
      } catch (err) {
        if (err instanceof ApiError && err.status === 404) return null;
        throw err;
      }
    },
  });
}

/** Creates or renews the key (the old one stops working at once); the answer is the new key. */
export function useRenewApiKey() {
  const client = useQueryClient();
  return $api.useMutation('put', '/api/self/apikey', {
    onSuccess: (key) => client.setQueryData(API_KEY_KEY, key.id),
  });
}
