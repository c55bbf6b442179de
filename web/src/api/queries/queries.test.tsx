import { QueryClientProvider, type QueryKey } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, NetworkError } from '../errors';
import { createAppQueryClient, shouldRetry } from '../query';
import { API_KEY_KEY, useApiKey, useRenewApiKey } from './account';
import { ENTITY_SEARCH_KEY, useDeleteEntity, useSaveEntity } from './admin';
import { LOGGERS_KEY, useHealth, useLoggers, useSetLoggerLevel } from './management';
import { OWN_SHORTS_KEY, SHORT_KEY, useDeleteShorts } from './shorts';

afterEach(() => vi.unstubAllGlobals());

type Answer = { status: number; body?: unknown };
/** Answers by "METHOD /path" (first match of the path's start); records every call. */
function stubApi(answers: Record<string, Answer>) {
  const calls: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn((req: Request) => {
      const call = `${req.method} ${new URL(req.url).pathname}`;
      calls.push(call);
      const key = Object.keys(answers).find((k) => call.startsWith(k));
      const a = key ? answers[key] : { status: 500, body: { status: 500 } };
      return Promise.resolve(
        new Response(a.body === undefined ? null : JSON.stringify(a.body), {
          status: a.status,
          headers: {
            'Content-Type': a.status >= 400 ? 'application/problem+json' : 'application/json',
          },
        }),
      );
    }),
  );
  return calls;
}

function setup() {
  const client = createAppQueryClient();
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>{children}</QueryClientProvider>
  );
  /** Puts data under a key, as a query that has loaded it. */
  const seed = (key: QueryKey) => client.setQueryData(key, { seeded: true });
  const invalidated = (key: QueryKey) => client.getQueryState(key)?.isInvalidated ?? false;
  return { client, wrapper, seed, invalidated };
}

describe('query defaults', () => {
  it('retries a lost connection once, never an answer of the server', () => {
    expect(shouldRetry(0, new NetworkError(new Error('offline')))).toBe(true);
    expect(shouldRetry(1, new NetworkError(new Error('offline')))).toBe(false);
    for (const status of [400, 404, 409, 500, 503])
      expect(shouldRetry(0, new ApiError(status, { status }))).toBe(false);
  });
});

describe('mutations invalidate the queries they change', () => {
  it('deleting shorts invalidates every page of the list and the details, once, after all deletes', async () => {
    const { wrapper, seed, invalidated } = setup();
    const calls = stubApi({ 'DELETE /api/code/': { status: 204 } });
    const page0 = [...OWN_SHORTS_KEY, { params: { query: { page: 0 } } }];
    const page3 = [...OWN_SHORTS_KEY, { params: { query: { page: 3 } } }];
    const info = [...SHORT_KEY, { params: { path: { id: 'abc' } } }];
    const other = ['get', '/api/account'];
    for (const k of [page0, page3, info, other]) seed(k);
    const { result } = renderHook(() => useDeleteShorts(), { wrapper });
    let ok = false;
    await act(async () => {
      ok = await result.current(['id-1', 'id-2']);
    });
    expect(ok).toBe(true);
    expect(calls.sort()).toEqual(['DELETE /api/code/id-1', 'DELETE /api/code/id-2']);
    await waitFor(() => expect(invalidated(page0)).toBe(true));
    expect(invalidated(page3)).toBe(true);
    expect(invalidated(info)).toBe(true);
    expect(invalidated(other)).toBe(false);
  });

  it('a failed delete among several says so; the list is invalidated all the same', async () => {
    const { wrapper, seed, invalidated } = setup();
    stubApi({
      'DELETE /api/code/bad': { status: 500, body: { status: 500 } },
      'DELETE /api/code/': { status: 204 },
    });
    const list = [...OWN_SHORTS_KEY, {}];
    seed(list);
    const { result } = renderHook(() => useDeleteShorts(), { wrapper });
    let ok = true;
    await act(async () => {
      ok = await result.current(['good', 'bad']);
    });
    expect(ok).toBe(false);
    await waitFor(() => expect(invalidated(list)).toBe(true));
  });

  it('saving or deleting an admin entry invalidates the entity searches (and only them)', async () => {
    const { wrapper, seed, invalidated } = setup();
    stubApi({ 'PUT /api/admin/entity/': { status: 200, body: {} } });
    const search = [...ENTITY_SEARCH_KEY, { params: { path: { entity: 'users' } } }];
    const entities = ['get', '/api/admin/entity'];
    seed(search);
    seed(entities);
    const { result } = renderHook(() => useSaveEntity(), { wrapper });
    await act(() =>
      result.current.mutateAsync({
        params: { path: { entity: 'users', id: 'u1' } },
        body: { activated: false },
      }),
    );
    expect(invalidated(search)).toBe(true);
    expect(invalidated(entities)).toBe(false);

    const again = setup();
    stubApi({ 'DELETE /api/admin/entity/': { status: 204 } });
    again.seed(search);
    const del = renderHook(() => useDeleteEntity(), { wrapper: again.wrapper });
    await act(() =>
      del.result.current.mutateAsync({ params: { path: { entity: 'users', id: 'u1' } } }),
    );
    expect(again.invalidated(search)).toBe(true);
  });

  it('a failed save invalidates nothing and throws the ApiError with its field errors', async () => {
    const { wrapper, seed, invalidated } = setup();
    stubApi({
      'PUT /api/admin/entity/': {
        status: 400,
        body: { status: 400, detail: 'Validation failed', fieldErrors: { name: 'too long' } },
      },
    });
    const search = [...ENTITY_SEARCH_KEY, {}];
    seed(search);
    const { result } = renderHook(() => useSaveEntity(), { wrapper });
    let thrown: unknown;
    await act(async () => {
      thrown = await result.current
        .mutateAsync({ params: { path: { entity: 'users', id: 'u1' } }, body: {} })
        .catch((e: unknown) => e);
    });
    expect(thrown).toBeInstanceOf(ApiError);
    expect(thrown).toMatchObject({ status: 400, fieldErrors: { name: 'too long' } });
    expect(invalidated(search)).toBe(false);
  });

  it('a logger level change resolves after the open loggers were loaded again', async () => {
    const { client, wrapper } = setup();
    const level = (configuredLevel: string | null) => ({
      levels: ['ERROR', 'WARN'],
      groups: {},
      loggers: { ROOT: { configuredLevel, effectiveLevel: configuredLevel ?? 'WARN' } },
    });
    let current = level(null);
    const calls: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn((req: Request) => {
        calls.push(`${req.method} ${new URL(req.url).pathname}`);
        if (req.method === 'POST') current = level('ERROR');
        return Promise.resolve(
          req.method === 'POST'
            ? new Response(null, { status: 204 })
            : Response.json(current, { status: 200 }),
        );
      }),
    );
    const open = renderHook(() => useLoggers(), { wrapper });
    await waitFor(() => expect(open.result.current.data?.loggers.ROOT.configuredLevel).toBeNull());
    const { result } = renderHook(() => useSetLoggerLevel(), { wrapper });
    await act(() => result.current('ROOT', 'ERROR'));
    // Resolved only after the invalidated loggers came back: the new level is already there.
    expect(calls).toEqual([
      'GET /management/loggers',
      'POST /management/loggers/ROOT',
      'GET /management/loggers',
    ]);
    expect(client.getQueryData(LOGGERS_KEY)).toEqual(level('ERROR'));
    await waitFor(() =>
      expect(open.result.current.data?.loggers.ROOT.configuredLevel).toBe('ERROR'),
    );
  });

  it('renewing the API key puts the new key in place of the old one', async () => {
    const { client, wrapper } = setup();
    stubApi({
      'GET /api/self/apikey': { status: 200, body: { id: 'us_alt' } },
      'PUT /api/self/apikey': { status: 200, body: { id: 'us_neu' } },
    });
    const key = renderHook(() => useApiKey(), { wrapper });
    await waitFor(() => expect(key.result.current.data).toBe('us_alt'));
    const { result } = renderHook(() => useRenewApiKey(), { wrapper });
    await act(() => result.current.mutateAsync({}));
    expect(client.getQueryData(API_KEY_KEY)).toBe('us_neu');
    await waitFor(() => expect(key.result.current.data).toBe('us_neu'));
  });
});

describe('queries that read an error answer as data', () => {
  it('no API key yet (404) is null, not an error; another failure is an error', async () => {
    const { wrapper } = setup();
    stubApi({ 'GET /api/self/apikey': { status: 404, body: { status: 404 } } });
    const none = renderHook(() => useApiKey(), { wrapper });
    await waitFor(() => expect(none.result.current.isSuccess).toBe(true));
    expect(none.result.current.data).toBeNull();

    const other = setup();
    stubApi({ 'GET /api/self/apikey': { status: 500, body: { status: 500 } } });
    const failed = renderHook(() => useApiKey(), { wrapper: other.wrapper });
    await waitFor(() => expect(failed.result.current.isError).toBe(true));
  });

  it('a DOWN health answer (503 with the report) is the report; a 503 problem is an error', async () => {
    const { wrapper } = setup();
    stubApi({
      'GET /management/health': { status: 503, body: { status: 'DOWN', components: {} } },
    });
    const down = renderHook(() => useHealth(), { wrapper });
    await waitFor(() => expect(down.result.current.report?.status).toBe('DOWN'));
    expect(down.result.current.error).toBeNull();

    const other = setup();
    stubApi({ 'GET /management/health': { status: 503, body: { status: 503, detail: 'x' } } });
    const failed = renderHook(() => useHealth(), { wrapper: other.wrapper });
    await waitFor(() => expect(failed.result.current.error).toBeInstanceOf(ApiError));
    expect(failed.result.current.report).toBeNull();
  });
});
