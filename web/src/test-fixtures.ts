import { cleanup } from '@testing-library/react';
import { afterEach, vi } from 'vitest';
import type { Short } from './api/client';
import type { AdminEntity, AdminField } from './lib/admin';
import { auth } from './state/auth';
import { dismissToast, toasts } from './state/toasts';

// Fixtures of the web tests: the stubbed API, the toasts, the reset after each test and the
// admin entities. Rendering helpers are in test-utils.tsx.

/** After each test: unmount, restore the stubbed globals, no toasts, nobody logged in. */
export function resetAfterEach(): void {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    for (const t of [...toasts.list]) dismissToast(t.id);
    auth.status = 'loading';
    auth.user = null;
  });
}

/** The texts of the toasts shown now. */
export const toastTexts = (): string[] => toasts.list.map((t) => t.text);

/** The stubbed API's answer to one call: a status and a JSON body (none when undefined). */
export interface Answer {
  status: number;
  body?: unknown;
}

/**
 * A call the stubbed API saw: method, path and the body as sent. `call` ("METHOD /path") and `json`
 * (the parsed body) are read-only views; `toEqual` compares only method, url and body.
 */
export class ApiCall {
  constructor(
    readonly method: string,
    readonly url: string,
    readonly body: string,
  ) {}

  get call(): string {
    return `${this.method} ${this.url}`;
  }

  get json(): unknown {
    return this.body ? JSON.parse(this.body) : undefined;
  }
}

/**
 * Stubs the global fetch. Each call gets its answer by "METHOD /path": from a function, or from a
 * table (an entry or a function of it; a call not in the table gets 404 `{}`). Answers are JSON,
 * problem+json from 400 on, without a body for 204 or an undefined body. Returns the calls seen.
 */
export function stubApi(
  answers: ((call: string) => Answer) | Record<string, Answer | (() => Answer)>,
): ApiCall[] {
  const answer =
    typeof answers === 'function'
      ? answers
      : (call: string) => {
          const found = answers[call];
          return typeof found === 'function' ? found() : (found ?? { status: 404, body: {} });
        };
  const calls: ApiCall[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (req: Request) => {
      const seen = new ApiCall(req.method, new URL(req.url).pathname, await req.text());
      calls.push(seen);
      const a = answer(seen.call);
      const json = a.status === 204 || a.body === undefined ? null : JSON.stringify(a.body);
      return new Response(json, {
        status: a.status,
        headers: {
          'Content-Type': a.status >= 400 ? 'application/problem+json' : 'application/json',
        },
      });
    }),
  );
  return calls;
}

/** Answers every API call with `status`/`body`; returns the calls seen. */
export const stubFetch = (status: number, body?: unknown): ApiCall[] =>
  stubApi(() => ({ status, body }));

/** An admin field as the server describes one: searchable, sortable, read-only, required unless `over` says else. */
export function adminField(
  name: string,
  type: AdminField['type'],
  over: Partial<AdminField> = {},
): AdminField {
  return {
    name,
    type,
    description: '',
    editable: false,
    nullable: false,
    searchable: true,
    sortable: true,
    ...over,
  };
}

/** An editable admin field (`nullable` and the rest from `over`). */
export const editableField = (
  name: string,
  type: AdminField['type'],
  over: Partial<AdminField> = {},
): AdminField => adminField(name, type, { editable: true, ...over });

/** An admin entity: deletable, not creatable unless `over` says else. */
export function adminEntity(
  name: AdminEntity['name'],
  description: string,
  fields: AdminField[],
  over: Partial<AdminEntity> = {},
): AdminEntity {
  return { name, description, creatable: false, deletable: true, fields, ...over };
}

/** A short as the API describes one (plain, anonymous, no limits); `over` adds or changes fields. */
export const shortFixture = (over: Record<string, unknown> = {}): Short =>
  ({
    id: '5f0c6a0e-4a8a-4c53-9a34-1f6f7f4f2c11',
    code: 'abc1234',
    name: null,
    url: 'https://example.com/a',
    hasPassword: false,
    maxUses: null,
    createdAt: '2026-01-01T10:00:00.000Z',
    expireAt: null,
    owner: null,
    dangers: false,
    ...over,
  }) as unknown as Short;
