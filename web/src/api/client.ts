import createClient from 'openapi-fetch';
import { ApiError, NetworkError } from './errors';
import type { components, paths } from './schema';

export { ApiError, NetworkError } from './errors';

export type Schemas = components['schemas'];
export type Short = Schemas['ShortDto'];
export type User = Schemas['UserDto'];
export type Problem = Schemas['Problem'];
export type CreateShort = Schemas['CreateShortDto'];

/** Every API call gives up after 5000 ms without an answer (then: NetworkError). */
export const BACKEND_TIMEOUT_MS = 5000;

/**
 * The fetch under the typed client: same origin, the caller's abort signal (react-query cancels
 * outdated requests) plus the backend timeout. No answer → NetworkError; a non-ok answer →
 * ApiError, so callers and queries only ever see data or one of the two errors.
 */
async function apiFetch(req: Request): Promise<Response> {
  let response: Response;
  try {
    response = await globalThis.fetch(req, {
      signal: AbortSignal.any([req.signal, AbortSignal.timeout(BACKEND_TIMEOUT_MS)]),
    });
  } catch (err) {
    throw new NetworkError(err);
  }
  if (!response.ok) throw await ApiError.fromResponse(response);
  return response;
}

/** The typed client over the generated schema. Same origin, credentials included, JSON. */
// JSON only: operations that also answer other media (a bot's HTML preview of a follow) are read
// as JSON here; files (CSV, QR codes) are links, not calls of this client.
export const api = createClient<paths, 'application/json'>({
  baseUrl: '',
  credentials: 'include',
  fetch: apiFetch,
});

/**
 * The data of an answer that carries one. Non-ok answers have already thrown ApiError (apiFetch);
 * an ok answer without its body is a broken answer too. Calls without content (204) just await.
 */
export async function unwrap<T>(p: Promise<{ data?: T; response: Response }>): Promise<T> {
  const { data, response } = await p;
  if (data === undefined) throw new ApiError(response.status, undefined);
  return data;
}

/** Read-only all the way down: what a valtio snapshot of server data is (e.g. the session's user). */
export type DeepReadonly<T> = T extends (...args: never[]) => unknown
  ? T
  : T extends object
    ? { readonly [K in keyof T]: DeepReadonly<T[K]> }
    : T;
