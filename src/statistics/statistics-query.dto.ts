import { QueryRule, QueryText } from '../common/query';
import { DAY_MS } from './traits';
import { canonicalTimeZone, type Granularity } from './zoned';

/** The query of both statistics routes, as text (the first value of each parameter). */
export interface StatisticsQuery {
  from?: string;
  to?: string;
  granularity?: string;
  tz?: string;
}

/** What a valid query asks for: the range, its buckets and their time zone (canonical spelling). */
export interface StatisticsRange {
  fromMs: number;
  toMs: number;
  granularity: Granularity;
  tz: string;
}

export const GRANULARITIES: readonly Granularity[] = ['hour', 'day', 'month'];
const MAX_DAYS = 400;
const MAX_HOUR_DAYS = 31;
const DEFAULT_DAYS = 30;
const DEFAULT_GRANULARITY: Granularity = 'day';
const DEFAULT_TZ = 'Europe/Berlin';

/** Statistics begin in 1970 (earlier years would meet Date.UTC's mapping of 0–99 to 19xx). */
const EARLIEST_MS = 0;

function date(raw: string | undefined, field: string, errors: Record<string, string>) {
  if (raw === undefined || raw === '') return undefined;
  const ms = /^\d{4}-\d{2}-\d{2}/.test(raw) ? Date.parse(raw) : NaN;
  if (!Number.isFinite(ms)) errors[field] = 'must be an ISO 8601 date-time';
  else if (ms < EARLIEST_MS) errors[field] = 'must not be before 1970-01-01T00:00:00Z';
  return ms;
}

/**
 * The rules of a statistics query: the range (from 1970 on, at most 400 days, 31 by hour; default
 * the last 30 days), granularity (default day) and time zone (default Europe/Berlin, matched
 * case-insensitively, answered in its canonical spelling). Answers the range, or the field errors
 * that refuse the query (all of them at once).
 */
export function checkStatisticsQuery(
  q: StatisticsQuery,
  now = Date.now(),
):
  | { range: StatisticsRange; errors?: undefined }
  | { range?: undefined; errors: Record<string, string> } {
  const errors: Record<string, string> = {};
  const toMs = date(q.to, 'to', errors) ?? now;
  const fromMs =
    date(q.from, 'from', errors) ?? Math.max(EARLIEST_MS, toMs - DEFAULT_DAYS * DAY_MS);
  const granularity = (q.granularity ?? DEFAULT_GRANULARITY) as Granularity;
  if (!GRANULARITIES.includes(granularity)) errors.granularity = 'must be hour, day or month';
  const tz = canonicalTimeZone(q.tz ?? DEFAULT_TZ) ?? '';
  if (!tz) errors.tz = 'must be an IANA time zone (e.g. Europe/Berlin)';
  if (!errors.from && !errors.to) {
    if (fromMs >= toMs) errors.from = 'must be before to';
    else if (toMs - fromMs > MAX_DAYS * DAY_MS) errors.to = `the range is at most ${MAX_DAYS} days`;
    else if (granularity === 'hour' && toMs - fromMs > MAX_HOUR_DAYS * DAY_MS)
      errors.granularity = `hour covers at most ${MAX_HOUR_DAYS} days`;
  }
  if (Object.keys(errors).length) return { errors };
  return { range: { fromMs, toMs, granularity, tz } };
}

/** Every parameter is refused with its own message of the one check over the whole query. */
const Checked = QueryRule((q: StatisticsQuery) => checkStatisticsQuery(q).errors ?? {});

/** `?from&to&granularity&tz` of `GET /api/code/{id}/statistics` and `statistics.csv`. */
export class StatisticsQueryDto implements StatisticsQuery {
  @QueryText({ format: 'date-time', description: 'ISO 8601; default: 30 days before `to`' })
  @Checked
  from?: string;

  @QueryText({ format: 'date-time', description: 'ISO 8601; default: now' })
  @Checked
  to?: string;

  @QueryText({ enum: GRANULARITIES, description: 'Default day; hour covers at most 31 days' })
  @Checked
  granularity?: string;

  @QueryText({
    description:
      'IANA time zone of the buckets, matched case-insensitively (the answer gives its canonical spelling); default Europe/Berlin',
  })
  @Checked
  tz?: string;
}
