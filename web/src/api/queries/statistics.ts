import { keepPreviousData } from '@tanstack/react-query';
import { $api } from '../query';

export interface StatisticsQuery {
  from: string;
  to: string;
  granularity: 'hour' | 'day' | 'month';
  tz: string;
}

/** The statistics of a short for a range (owner or admin); the last range stays while the next loads. */
export function useShortStatistics(id: string, query: StatisticsQuery) {
  return $api.useQuery(
    'get',
    '/api/code/{id}/statistics',
    { params: { path: { id }, query } },
    { placeholderData: keepPreviousData },
  );
}
