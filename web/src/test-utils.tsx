import { QueryClientProvider } from '@tanstack/react-query';
import { render, type RenderResult } from '@testing-library/react';
import type { ReactElement } from 'react';
import { createAppQueryClient } from './api/query';

/** Renders inside a fresh QueryClient with the app's defaults (one per test: no shared cache). */
export function renderWithQueries(ui: ReactElement): RenderResult & {
  client: ReturnType<typeof createAppQueryClient>;
} {
  const client = createAppQueryClient();
  const result = render(<QueryClientProvider client={client}>{ui}</QueryClientProvider>);
  return { ...result, client };
}
