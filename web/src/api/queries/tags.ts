import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { tagsApi, type StatisticsRange } from '../../lib/tags-api';

/** Every tag statistics query (`GET /api/statistics?tag=`). */
export const TAG_STATISTICS_KEY = ['get', '/api/statistics'] as const;

/** A tag's statistics for a range (in a team's space when given); the last range stays while the next loads. */
export function useTagStatistics(tag: string, team: string | null, range: StatisticsRange) {
  return useQuery({
    queryKey: [...TAG_STATISTICS_KEY, { tag, team, range }],
    queryFn: () => tagsApi.statistics(tag, team, range),
    placeholderData: keepPreviousData,
  });
}
