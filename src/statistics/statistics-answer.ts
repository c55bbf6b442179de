import { IsoWriter } from './iso';
import type { StatisticsRange } from './statistics-query.dto';
import type { StatisticsDto, StatsEntryDto } from './statistics.dto';

/** The lists of a statistics answer (`[{name, count}]` each, top 10 then `other`). */
export type StatisticsList = 'referrers' | 'countries' | 'browsers' | 'os' | 'devices' | 'targets';

/**
 * A statistics answer (CONTRACT "Statistics") in its one shape, for a short's, a tag's and a
 * page's statistics: the range, one bucket per start in `starts` with its sums from `sums`
 * (`sums[3 * i]` visits, `sums[3 * i + 1]` visitors, `sums[3 * i + 2]` bots of bucket `i`), the
 * totals over the buckets, and the lists given (the others empty). `isoStarts`: the starts as
 * text when the caller has them (else written here).
 */
export function statisticsAnswer(
  r: StatisticsRange,
  starts: readonly number[],
  sums: ArrayLike<number>,
  lists: Partial<Record<StatisticsList, StatsEntryDto[]>> = {},
  isoStarts?: readonly string[],
): StatisticsDto {
  const first = starts[0] ?? r.fromMs;
  const iso = new IsoWriter();
  const total = { visits: 0, visitors: 0, bots: 0 };
  const series = starts.map((s, i) => {
    const b = {
      start: isoStarts?.[i] ?? iso.write(s),
      visits: sums[3 * i],
      visitors: sums[3 * i + 1],
      bots: sums[3 * i + 2],
    };
    total.visits += b.visits;
    total.visitors += b.visitors;
    total.bots += b.bots;
    return b;
  });
  return {
    from: new Date(first).toISOString(),
    to: new Date(r.toMs).toISOString(),
    granularity: r.granularity,
    tz: r.tz,
    total,
    series,
    referrers: lists.referrers ?? [],
    countries: lists.countries ?? [],
    browsers: lists.browsers ?? [],
    os: lists.os ?? [],
    devices: lists.devices ?? [],
    targets: lists.targets ?? [],
  };
}
