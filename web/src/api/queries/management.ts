import { keepPreviousData, useQueryClient } from '@tanstack/react-query';
import type { Schemas } from '../client';
import { ApiError } from '../errors';
import { $api } from '../query';

export type Health = Schemas['HealthReportDto'];
type LoggerLevel = Schemas['SetLoggerLevelDto']['configuredLevel'];

/** The loggers and their levels (`GET /management/loggers`). */
export const LOGGERS_KEY = ['get', '/management/loggers'] as const;

/** A health report says UP or DOWN (a problem+json body has a numeric status instead). */
function isHealthReport(body: unknown): body is Health {
  return (
    body !== null && typeof body === 'object' && 'status' in body && typeof body.status === 'string'
  );
}

/**
 * The health report with its components. A DOWN answer is a 503 whose body is the same report:
 * `report` holds it then, and `error` is only set when there is no report at all.
 */
export function useHealth() {
  const q = $api.useQuery('get', '/management/health');
  const down = q.error instanceof ApiError && isHealthReport(q.error.body) ? q.error.body : null;
  return {
    report: q.data ?? down,
    error: down ? null : q.error,
    refetch: q.refetch,
  };
}

/** Version, build and git (`GET /management/info`). */
export function useManagementInfo() {
  return $api.useQuery('get', '/management/info');
}

export function useLoggers() {
  return $api.useQuery('get', '/management/loggers');
}

/** Sets a logger's level (null: back to the default); resolves after the loggers were loaded again. */
export function useSetLoggerLevel() {
  const client = useQueryClient();
  const { mutateAsync } = $api.useMutation('post', '/management/loggers/{logger}', {
    onSuccess: () => client.invalidateQueries({ queryKey: LOGGERS_KEY }),
  });
  return (logger: string, level: LoggerLevel) =>
    mutateAsync({ params: { path: { logger } }, body: { configuredLevel: level } });
}

/** The log entries from `startDate` on (ISO; undefined: all the server keeps). */
export function useLogs(startDate: string | undefined) {
  return $api.useQuery(
    'get',
    '/management/logs',
    { params: { query: startDate ? { startDate } : {} } },
    { placeholderData: keepPreviousData },
  );
}
