/**
 * How the statistics read their sums from the rollups (stats_daily, stats_value_spans) and the
 * rows beneath them (stats_hourly, stats_values), with the same answers as from the rows alone.
 *
 * Time-zone buckets do not fall on UTC days (a day in Berlin is 23:00–23:00 UTC), so a bucket is
 * covered day by day: a UTC day wholly inside it is its daily row; a day it covers in part is
 * either those hours (at most 12) or the daily row minus the hours it does not cover. A year by
 * local day in any zone thus reads 365 daily rows and at most 12 hours per day, usually 1.
 */

/** Days per value span (stats_value_spans.span_no = day_no / VALUE_SPAN_DAYS; fixed with the data). */
export const VALUE_SPAN_DAYS = 16;

const HOURS_PER_DAY = 24;

/**
 * The rows that sum the buckets, each mapped to its bucket's index. A day's row is used by at
 * most one bucket (the one covering more than half of it); an hour is added to at most one bucket
 * (the one holding it) and taken from at most one (the one that used its day's row), so one map
 * per role suffices.
 */
export interface CoverPlan {
  /** Daily rows to read, and the bucket each is added to. */
  days: Map<number, number>;
  /** Hourly rows to read that a bucket adds: the bucket. */
  hoursIn: Map<number, number>;
  /** Hourly rows to read that a bucket takes off (its day's row holds them): the bucket. */
  hoursOut: Map<number, number>;
}

function put(map: Map<number, number>, key: number, bucket: number): void {
  if (map.has(key)) throw new Error(`Statistics: row ${key} planned twice`);
  map.set(key, bucket);
}

/**
 * The rows that sum each bucket `[bounds[i], bounds[i + 1])` (whole hours since the epoch).
 * `dailyFrom`: the first day whose daily row may be used (days before it may have lost hours to
 * the retention, while their daily row has not).
 */
export function coverPlan(bounds: readonly number[], dailyFrom: number): CoverPlan {
  const plan: CoverPlan = { days: new Map(), hoursIn: new Map(), hoursOut: new Map() };
  const hours = (map: Map<number, number>, bucket: number, from: number, to: number) => {
    for (let h = from; h < to; h++) put(map, h, bucket);
  };
  for (let bucket = 0; bucket + 1 < bounds.length; bucket++) {
    const a = bounds[bucket];
    const b = bounds[bucket + 1];
    if (b <= a) continue;
    for (let d = Math.floor(a / HOURS_PER_DAY); d * HOURS_PER_DAY < b; d++) {
      const start = d * HOURS_PER_DAY;
      const end = start + HOURS_PER_DAY;
      const lo = Math.max(a, start);
      const hi = Math.min(b, end);
      const covered = hi - lo;
      if (d < dailyFrom || covered <= HOURS_PER_DAY / 2) {
        hours(plan.hoursIn, bucket, lo, hi);
      } else {
        put(plan.days, d, bucket);
        hours(plan.hoursOut, bucket, start, lo);
        hours(plan.hoursOut, bucket, hi, end);
      }
    }
  }
  return plan;
}

/**
 * The value spans wholly inside the days `[firstDay, lastDay]` whose days may all be used (from
 * `spansFrom`), and the days outside them, as at most two ranges of days.
 */
export function valueCover(
  firstDay: number,
  lastDay: number,
  dailyFrom: number,
): { spans?: [number, number]; days: Array<[number, number]> } {
  const firstSpan = Math.ceil(Math.max(firstDay, dailyFrom) / VALUE_SPAN_DAYS);
  const lastSpan = Math.floor((lastDay + 1) / VALUE_SPAN_DAYS) - 1;
  if (lastSpan < firstSpan) return { days: [[firstDay, lastDay]] };
  const days: Array<[number, number]> = [];
  if (firstDay < firstSpan * VALUE_SPAN_DAYS)
    days.push([firstDay, firstSpan * VALUE_SPAN_DAYS - 1]);
  if ((lastSpan + 1) * VALUE_SPAN_DAYS <= lastDay)
    days.push([(lastSpan + 1) * VALUE_SPAN_DAYS, lastDay]);
  return { spans: [firstSpan, lastSpan], days };
}
