import type { Schemas } from '../api/client';
import { locale, msg } from '../i18n/current';
import type { RedirectRule } from '@shared/redirect-rules';
import { osName, ruleName } from './rule-summary';

/** GET /api/code/{id}/statistics (CONTRACT "Statistics"). */
export type StatisticsAnswer = Schemas['StatisticsDto'];
export type StatsEntry = Schemas['StatsEntryDto'];

export const STATS_RANGES = ['24h', '7d', '30d', '12m'] as const;
export type StatsRange = (typeof STATS_RANGES)[number];

const HOUR = 3_600_000;
/** The browser's time zone (the server's default is Europe/Berlin). */
export function timeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'Europe/Berlin';
}

/** The query of a range: 24 h and 7 days by the hour, 30 days by the day, 12 months by the month. */
export function rangeQuery(range: StatsRange, now = Date.now(), tz = timeZone()) {
  const end = Math.ceil(now / HOUR) * HOUR; // the current hour is included
  const spans: Record<StatsRange, [number, 'hour' | 'day' | 'month']> = {
    '24h': [24 * HOUR, 'hour'],
    '7d': [7 * 24 * HOUR, 'hour'],
    '30d': [30 * 24 * HOUR, 'day'],
    '12m': [365 * 24 * HOUR, 'month'],
  };
  const [span, granularity] = spans[range];
  return {
    from: new Date(end - span).toISOString(),
    to: new Date(end).toISOString(),
    granularity: granularity as 'hour' | 'day' | 'month',
    tz,
  };
}

/** The CSV of the same numbers (GET /api/code/{id}/statistics.csv). */
export function statisticsCsvUrl(id: string, query: ReturnType<typeof rangeQuery>): string {
  return `/api/code/${encodeURIComponent(id)}/statistics.csv?${new URLSearchParams(query).toString()}`;
}

/** The country names per locale (null: Intl.DisplayNames is not there). */
const regionNamesBy = new Map<string, Intl.DisplayNames | null>();
/** A country's German name by its ISO code (`DE` → Deutschland); `unknown` and `other` in German. */
export function countryName(code: string): string {
  if (code === 'unknown') return msg.stats.unknown;
  if (code === 'other') return msg.stats.other;
  const loc = locale();
  let regionNames = regionNamesBy.get(loc);
  if (regionNames === undefined) {
    try {
      regionNames = new Intl.DisplayNames([loc], { type: 'region' });
    } catch {
      regionNames = null;
    }
    regionNamesBy.set(loc, regionNames);
  }
  try {
    return regionNames?.of(code.toUpperCase()) ?? code;
  } catch {
    return code;
  }
}

/**
 * The label of a top-list entry. The targets name the rule that matched by its number and, when
 * the short's `rules` are given, its conditions ('Regel 1: iOS'); operating systems are spelled
 * as the rules spell them ('macOS', not the parser's 'Mac OS').
 */
export function entryName(
  list: 'referrers' | 'countries' | 'browsers' | 'os' | 'devices' | 'targets',
  name: string,
  rules?: readonly Pick<RedirectRule, 'conditions'>[],
): string {
  if (name === 'other') return msg.stats.other;
  // Where the visits went: the short's url, or the redirect rule (by its number) that matched.
  if (list === 'targets') {
    if (name === 'default') return msg.stats.targetDefault;
    const n = Number(name);
    return Number.isInteger(n) && n >= 1 ? ruleName(n - 1, rules?.[n - 1]) : name;
  }
  if (list === 'countries') return countryName(name);
  if (list === 'referrers' && name === 'direct') return msg.stats.direct;
  if (list === 'devices') return msg.stats.deviceNames[name] ?? name;
  if (name === 'unknown') return msg.stats.unknown;
  if (list === 'os') return osName(name);
  return name;
}

/** A bucket's start as the table and the chart's axis read it, in the chosen granularity. */
export function bucketLabel(
  iso: string,
  granularity: StatisticsAnswer['granularity'],
  tz = timeZone(),
): string {
  const options: Intl.DateTimeFormatOptions =
    granularity === 'month'
      ? { month: 'long', year: 'numeric', timeZone: tz }
      : granularity === 'day'
        ? { dateStyle: 'medium', timeZone: tz }
        : { dateStyle: 'short', timeStyle: 'short', timeZone: tz };
  return new Intl.DateTimeFormat(locale(), options).format(new Date(iso));
}

/** A top-list entry with its share of the list (0–1) and that share as German text ('33 %'). */
export interface SharedEntry extends StatsEntry {
  share: number;
  percent: string;
}

function percentFormat(): Intl.NumberFormat {
  return new Intl.NumberFormat(locale(), { style: 'percent', maximumFractionDigits: 0 });
}

/**
 * Each entry's share of its list. The lists (top 10 plus 'other') each add up to the visits, so
 * the sum of the list is the whole; a share that rounds to 0 % but is not nothing reads '< 1 %'.
 */
export function withShares(entries: readonly StatsEntry[]): SharedEntry[] {
  const sum = entries.reduce((n, e) => n + e.count, 0);
  const format = percentFormat();
  return entries.map((e) => {
    const share = sum > 0 ? e.count / sum : 0;
    const percent = share > 0 && share < 0.005 ? `< ${format.format(0.01)}` : format.format(share);
    return { ...e, share, percent };
  });
}

/**
 * A series' value in the chart's legend: the bucket's number under the pointer, else (`idx`
 * null) the range's total — uPlot would show '--' until the pointer is over the chart.
 */
export function legendValue(total: number, value: number | null, idx: number | null): string {
  const n = idx == null ? total : (value ?? 0);
  return n.toLocaleString(locale());
}

/** The legend's time while it shows the totals: the first and the last bucket. */
export function legendSpan(
  data: Pick<StatisticsAnswer, 'series' | 'granularity'>,
  tz = timeZone(),
): string {
  const first = data.series[0];
  const last = data.series[data.series.length - 1];
  if (!first || !last) return '';
  return `${bucketLabel(first.start, data.granularity, tz)} – ${bucketLabel(last.start, data.granularity, tz)}`;
}
