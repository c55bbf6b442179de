import { QueryClientProvider } from '@tanstack/react-query';
import { render, type RenderResult } from '@testing-library/react';
import type { ReactElement } from 'react';
import { vi } from 'vitest';
import { Route, Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { createAppQueryClient } from './api/query';
import type { Answer } from './test-fixtures';

/** Renders inside a fresh QueryClient with the app's defaults (one per test: no shared cache). */
export function renderWithQueries(ui: ReactElement): RenderResult & {
  client: ReturnType<typeof createAppQueryClient>;
} {
  const client = createAppQueryClient();
  const result = render(<QueryClientProvider client={client}>{ui}</QueryClientProvider>);
  return { ...result, client };
}

/** Renders `ui` under the route `pattern` at `path`, with queries; returns the memory location. */
export function renderAt(path: string, pattern: string, ui: ReactElement) {
  const mem = memoryLocation({ path, record: true });
  const result = renderWithQueries(
    <Router hook={mem.hook}>
      <Route path={pattern}>{ui}</Route>
    </Router>,
  );
  return { ...result, mem };
}

/**
 * Records the URL of every call the stubbed fetch is asked (stubApi sees only the path): the
 * whole URL, or its path and query with `pathAndQuery`.
 */
export function recordUrls({ pathAndQuery = false } = {}): string[] {
  const urls: string[] = [];
  const inner = globalThis.fetch;
  vi.stubGlobal('fetch', (req: Request) => {
    const u = new URL(req.url);
    urls.push(pathAndQuery ? u.pathname + u.search : req.url);
    return inner(req);
  });
  return urls;
}

/** A stubbed answer of one page of a paged list (all of `content`, page 0 of 1). */
export const pageAnswer = (content: unknown[]): Answer => ({
  status: 200,
  body: {
    content,
    totalElements: content.length,
    totalPages: 1,
    number: 0,
    size: 20,
    numberOfElements: content.length,
    first: true,
    last: true,
    empty: content.length === 0,
  },
});
