import { QueryClient } from '@tanstack/react-query';
import createQueryHooks from 'openapi-react-query';
import { api, NetworkError } from './client';

/**
 * Server data in the client: react-query hooks over the typed openapi-fetch client.
 * Query keys are openapi-react-query's `[method, path, init]`, so `['get', '/api/code']` names
 * every page of the own-shorts list and invalidating it refetches whichever page is shown.
 * The query modules (`queries/*.ts`) are the only users of `$api`.
 *
 * Loaded lazily with the pages that show server data (the start page needs none of it).
 */
export const $api = createQueryHooks(api);

/** An answer is final (4xx are the caller's; a 503 comes with Retry-After); only a lost connection is retried, once. */
export function shouldRetry(failureCount: number, error: unknown): boolean {
  return error instanceof NetworkError && failureCount < 1;
}

export function createAppQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        retry: shouldRetry,
        // Data is fetched when a view mounts or a mutation invalidates it, not on tab focus.
        refetchOnWindowFocus: false,
      },
      mutations: { retry: false },
    },
  });
}

/** The one QueryClient of the app. */
export const queryClient = createAppQueryClient();
