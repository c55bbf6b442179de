/**
 * The client's route of a tag's statistics (pages/TagStatisticsPage.tsx), in a module of its own:
 * App.tsx is part of every first visit and needs nothing else of the tags.
 *
 * MERGE: belongs into CLIENT_ROUTES (src/shared/client-routes.ts, e.g. `tagStatistics`), which
 * also reserves `tags` as a code; App.tsx then names it `ROUTES.tagStatistics` and this file goes
 * (this branch stays inside web/).
 */
export const TAG_STATISTICS_ROUTE = '/tags/:tag/statistics';
