import { QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { queryClient } from './query';

/**
 * The shared QueryClient for the pages that show server data. App.tsx loads this module lazily
 * around those pages, so react-query arrives with them and stays out of the start page's bundle.
 */
export default function QueryScope({ children }: { children: ReactNode }) {
  return <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
}
