import { BACKEND_TIMEOUT_MS } from './client';
import { ApiError, NetworkError } from './errors';

/**
 * One call of an endpoint the typed client (`api`, client.ts) does not name: same origin, JSON,
 * the backend timeout; a non-ok answer throws ApiError (by its errorKey the views speak), no
 * answer NetworkError — like `api`. Free of react-query, so views outside the query scope (the
 * start page's create form) may use it too.
 */
export async function call<T = void>(method: string, path: string, body?: unknown): Promise<T> {
  let response: Response;
  try {
    response = await globalThis.fetch(
      new Request(new URL(path, globalThis.location?.origin ?? 'http://localhost'), {
        method,
        credentials: 'include',
        headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(BACKEND_TIMEOUT_MS),
      }),
    );
  } catch (err) {
    throw new NetworkError(err);
  }
  if (!response.ok) throw await ApiError.fromResponse(response);
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  return (text ? JSON.parse(text) : undefined) as T;
}
