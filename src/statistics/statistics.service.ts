import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { Actor } from '../common/actor';
import { ValidationFailedError } from '../common/errors';
import { ShortService } from '../shorts/short.service';
import { dialectSql, engineOf } from '../database/dialect';
import type { StatisticsDto, StatsEntryDto } from './statistics.dto';
import {
  checkStatisticsQuery,
  type StatisticsQuery,
  type StatisticsRange,
} from './statistics-query.dto';
import { DAY_MS, type Dimension, HOUR_MS, OTHER } from './traits';
import { bucketStarts } from './zoned';

export type { StatisticsQuery } from './statistics-query.dto';

const TOP = 10;
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

  async compute(shortId: string, r: StatisticsRange): Promise<StatisticsDto> {
    const starts = bucketStarts(r.fromMs, r.toMs, r.granularity, r.tz);
    const first = starts[0] ?? r.fromMs;
    const series = starts.map((s) => ({
      start: new Date(s).toISOString(),
      visits: 0,
      visitors: 0,
      bots: 0,
    }));
    const total = { visits: 0, visitors: 0, bots: 0 };
    // Sub-buckets: the buckets themselves, or the days of the months. Each covers whole hours
    // [hours[i], hours[i + 1]); runs of equal length are summed by the database in one query.
    const sub = r.granularity === 'month' ? bucketStarts(first, r.toMs, 'day', r.tz) : starts;
    const hours = sub.map((ms, i) =>
      i === 0 ? Math.floor(ms / HOUR_MS) : Math.ceil(ms / HOUR_MS),
    );
    hours.push(Math.ceil(r.toMs / HOUR_MS));
    const sums = sub.map(() => ({ visits: 0, visitors: 0, bots: 0 }));
    const div = engineOf(this.ds) === 'mysql' ? 'DIV' : '/';
    for (let i = 0; i < sub.length;) {
      const width = hours[i + 1] - hours[i];
      let j = i + 1;
      while (j < sub.length && hours[j + 1] - hours[j] === width) j++;
      if (width > 0) {
        const base = hours[i];
        const rows = await this.sql(
          `SELECT (hour_no - ${base}) ${div} ${width} AS k, SUM(visits) AS visits, SUM(visitors) AS visitors, SUM(bots) AS bots FROM stats_hourly WHERE short_id = ? AND hour_no >= ? AND hour_no < ? GROUP BY (hour_no - ${base}) ${div} ${width}`,
          [shortId, base, hours[j]],
        );
        for (const row of rows) {
          const b = sums[i + Number(row.k)];
          if (!b) continue;
          for (const k of ['visits', 'visitors', 'bots'] as const) b[k] += Number(row[k]);
        }
      }
      i = j;
    }
    // Fold the sub-buckets into the buckets (the same ones unless by month).
    let bucket = 0;
    for (const [i, at] of sub.entries()) {
      while (bucket + 1 < starts.length && starts[bucket + 1] <= at) bucket++;
      const b = series[bucket];
      if (!b) continue;
      for (const k of ['visits', 'visitors', 'bots'] as const) {
        b[k] += sums[i][k];
        total[k] += sums[i][k];
      }
    }
    const values = await this.sql(
      'SELECT dim, name, SUM(hits) AS n FROM stats_values WHERE short_id = ? AND day_no >= ? AND day_no <= ? GROUP BY dim, name',
      [shortId, Math.floor(first / DAY_MS), Math.floor((r.toMs - 1) / DAY_MS)],
    );
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
      const entries = values
        .filter((v) => v.dim === dim)
        .map((v) => ({ name: String(v.name), count: Number(v.n) }));
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
