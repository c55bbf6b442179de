import createClient from 'openapi-fetch';
import type { components, paths } from './schema';

export type Schemas = components['schemas'];
export type Short = Schemas['ShortDto'];
export type User = Schemas['UserDto'];
export type Problem = Schemas['Problem'];
export type CreateShort = Schemas['CreateShortDto'];

/** SPEC §9: backend timeout 5000 ms. */
export const BACKEND_TIMEOUT_MS = 5000;

/** Thrown for a network failure or timeout (no answer at all). */
export class NetworkError extends Error {
  constructor(cause: unknown) {
    super(cause instanceof Error ? cause.message : 'Network error');
    this.name = 'NetworkError';
  }
}

/**
 * The typed client over the generated schema. Same origin, credentials included, JSON.
 * Non-ok answers come back as `error` (the problem+json body).
 */
export const api = createClient<paths>({
  baseUrl: '',
  credentials: 'include',
  fetch: async (req: Request) => {
    try {
      return await globalThis.fetch(req, { signal: AbortSignal.timeout(BACKEND_TIMEOUT_MS) });
    } catch (err) {
      throw new NetworkError(err);
    }
  },
});

/** Unwraps an openapi-fetch result: the data, or throws the error body with its status. */
export async function unwrap<T>(
  p: Promise<{ data?: T; error?: unknown; response: Response }>,
): Promise<T> {
  const { data, error, response } = await p;
  if (!response.ok) {
    const body =
      error && typeof error === 'object' ? error : { detail: String(error ?? response.statusText) };
    throw Object.assign({ status: response.status }, body);
  }
  return data as T;
}
