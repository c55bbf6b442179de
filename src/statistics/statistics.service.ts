import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { Actor } from '../common/actor';
import { ValidationFailedError } from '../common/errors';
import { APP_CONFIG, type AppConfig } from '../config/config';
import { ShortService } from '../shorts/short.service';
import { dialectSql, engineOf } from '../database/dialect';
import type { StatisticsDto, StatsEntryDto } from './statistics.dto';
import {
  checkStatisticsQuery,
  type StatisticsQuery,
  type StatisticsRange,
} from './statistics-query.dto';
import { DAY_MS, type Dimension, HOUR_MS, OTHER } from './traits';
import { coverPlan, type Term, valueCover } from './rollups';
import { bucketStarts } from './zoned';

export type { StatisticsQuery } from './statistics-query.dto';

const TOP = 10;
const COUNTS = ['visits', 'visitors', 'bots'] as const;
const LONG_RUN = 64;
const IN_LIST = 500;
const LISTS: Array<[keyof StatisticsDto, Dimension]> = [
  ['referrers', 'referrer'],
  ['countries', 'country'],
  ['browsers', 'browser'],
  ['os', 'os'],
  ['devices', 'device'],
  ['targets', 'target'],
];

/** The statistics of a short as CONTRACT "Statistics" answers them (owner or admin). */
@Injectable()
export class StatisticsService {
  constructor(
    private readonly ds: DataSource,
    private readonly shorts: ShortService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  private sql(text: string, params: unknown[]): Promise<Array<Record<string, unknown>>> {
    return this.ds.query(dialectSql(engineOf(this.ds), text), params);
  }

  /**
   * Checks the query (checkStatisticsQuery: the range, granularity and time zone) and answers what
   * it asks for; 400 with fieldErrors.
   */
  parse(q: StatisticsQuery, now = Date.now()): StatisticsRange {
    const { range, errors } = checkStatisticsQuery(q, now);
    if (errors) throw new ValidationFailedError(errors);
    return range;
  }

  async forShort(id: string, caller: Actor | null, q: StatisticsQuery): Promise<StatisticsDto> {
    const range = this.parse(q);
    const short = await this.shorts.findOwned(id, caller);
    return this.compute(short.id, range);
  }

  async compute(shortId: string, r: StatisticsRange, now = Date.now()): Promise<StatisticsDto> {
    const starts = bucketStarts(r.fromMs, r.toMs, r.granularity, r.tz);
    const first = starts[0] ?? r.fromMs;
    const series = starts.map((s) => ({
      start: new Date(s).toISOString(),
      visits: 0,
      visitors: 0,
      bots: 0,
    }));
    const total = { visits: 0, visitors: 0, bots: 0 };
    // Each bucket covers whole hours [bounds[i], bounds[i + 1]), summed from the daily rollup and
    // the hours at its edges (coverPlan).
    const bounds = starts.map((ms, i) =>
      i === 0 ? Math.floor(ms / HOUR_MS) : Math.ceil(ms / HOUR_MS),
    );
    bounds.push(Math.ceil(r.toMs / HOUR_MS));
    const dailyFrom = Math.ceil((now - this.config.stats.retentionDays * DAY_MS) / DAY_MS);
    const plan = coverPlan(bounds, dailyFrom);
    const add = (terms: Term[] | undefined, row: Record<string, unknown>) => {
      for (const { bucket, sign } of terms ?? []) {
        const b = series[bucket];
        for (const k of COUNTS) b[k] += sign * Number(row[k]);
      }
    };
    if (plan.days.size > 0) {
      const days = [...plan.days.keys()];
      const rows = await this.sql(
        'SELECT day_no, visits, visitors, bots FROM stats_daily WHERE short_id = ? AND day_no >= ? AND day_no <= ?',
        [shortId, Math.min(...days), Math.max(...days)],
      );
      for (const row of rows) add(plan.days.get(Number(row.day_no)), row);
    }
    for (const { where, params } of hourQueries([...plan.hours.keys()])) {
      const rows = await this.sql(
        `SELECT hour_no, visits, visitors, bots FROM stats_hourly WHERE short_id = ? AND ${where}`,
        [shortId, ...params],
      );
      for (const row of rows) add(plan.hours.get(Number(row.hour_no)), row);
    }
    for (const b of series) for (const k of COUNTS) total[k] += b[k];

    const cover = valueCover(
      Math.floor(first / DAY_MS),
      Math.floor((r.toMs - 1) / DAY_MS),
      dailyFrom,
    );
    const values: Array<Record<string, unknown>> = [];
    if (cover.spans) {
      values.push(
        ...(await this.sql(
          'SELECT dim, name, SUM(hits) AS n FROM stats_value_spans WHERE short_id = ? AND span_no >= ? AND span_no <= ? GROUP BY dim, name',
          [shortId, ...cover.spans],
        )),
      );
    }
    for (const [from, to] of cover.days) {
      values.push(
        ...(await this.sql(
          'SELECT dim, name, SUM(hits) AS n FROM stats_values WHERE short_id = ? AND day_no >= ? AND day_no <= ? GROUP BY dim, name',
          [shortId, from, to],
        )),
      );
    }
    const answer: StatisticsDto = {
      from: new Date(first).toISOString(),
      to: new Date(r.toMs).toISOString(),
      granularity: r.granularity,
      tz: r.tz,
      total,
      series,
      referrers: [],
      countries: [],
      browsers: [],
      os: [],
      devices: [],
      targets: [],
    };
    for (const [field, dim] of LISTS) {
      const counts = new Map<string, number>();
      for (const v of values) {
        if (v.dim !== dim) continue;
        counts.set(String(v.name), (counts.get(String(v.name)) ?? 0) + Number(v.n));
      }
      const entries = [...counts].map(([name, count]) => ({ name, count }));
      (answer[field] as StatsEntryDto[]) = topWithOther(entries);
    }
    return answer;
  }

  /** The series as CSV: `start,visits,visitors,bots`, one line per bucket. */
  async csvForShort(id: string, caller: Actor | null, q: StatisticsQuery): Promise<string> {
    const s = await this.forShort(id, caller, q);
    return (
      [
        'start,visits,visitors,bots',
        ...s.series.map((b) => `${b.start},${b.visits},${b.visitors},${b.bots}`),
      ].join('\r\n') + '\r\n'
    );
  }
}

/**
 * The statements that read the wanted hours: a run of consecutive hours as long as LONG_RUN or
 * longer is a range (the hours of `granularity=hour`); the others are read by `IN` lists of
 * index lookups (a year by Berlin days wants one hour a day), IN_LIST at a time.
 */
function hourQueries(hours: number[]): Array<{ where: string; params: number[] }> {
  hours.sort((a, b) => a - b);
  const runs: Array<[number, number]> = [];
  for (const h of hours) {
    const last = runs.at(-1);
    if (last && h === last[1] + 1) last[1] = h;
    else runs.push([h, h]);
  }
  const queries: Array<{ where: string; params: number[] }> = [];
  const single: number[] = [];
  for (const [from, to] of runs) {
    if (to - from + 1 >= LONG_RUN)
      queries.push({ where: 'hour_no >= ? AND hour_no <= ?', params: [from, to] });
    else for (let h = from; h <= to; h++) single.push(h);
  }
  for (let i = 0; i < single.length; i += IN_LIST) {
    const list = single.slice(i, i + IN_LIST);
    queries.push({ where: `hour_no IN (${list.map(() => '?').join(', ')})`, params: list });
  }
  return queries;
}

/** The ten largest, then `other` with the rest (and what was stored as `other`). */
export function topWithOther(entries: StatsEntryDto[]): StatsEntryDto[] {
  const named = entries
    .filter((e) => e.name !== OTHER)
    .sort((a, b) => b.count - a.count || a.name.localeCompare(b.name));
  const rest =
    named.slice(TOP).reduce((n, e) => n + e.count, 0) +
    entries.filter((e) => e.name === OTHER).reduce((n, e) => n + e.count, 0);
  const top = named.slice(0, TOP);
  return rest > 0 ? [...top, { name: OTHER, count: rest }] : top;
}
