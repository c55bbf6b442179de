import { Inject, Injectable, type OnApplicationShutdown, Optional } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { Actor } from '../common/actor';
import { ValidationFailedError } from '../common/errors';
import { APP_CONFIG, type AppConfig } from '../config/config';
import { ShortAccessService } from '../shorts/short-access.service';
import { dialectSql, engineOf, jsonRowsOf, placeholders } from '../database/dialect';
import { SQLITE_CACHE_KIB } from '../database/sqlite-options';
import { FailureReporter } from '../failure/failure-reporter';
import type { StatisticsDto, StatsEntryDto } from './statistics.dto';
import {
  checkStatisticsQuery,
  type StatisticsQuery,
  type StatisticsRange,
} from './statistics-query.dto';
import { DAY_MS, type Dimension, HOUR_MS, OTHER } from './traits';
import { type CoverPlan, coverPlan, valueCover } from './rollups';
import { IsoWriter } from './iso';
import { SqliteReader } from './sqlite-reader';
import { bucketStarts } from './zoned';

export type { StatisticsQuery } from './statistics-query.dto';

/** What the statistics use of better-sqlite3 (the connection TypeORM holds). */
interface SqliteStatement {
  pluck(on: boolean): SqliteStatement;
  get(...params: unknown[]): unknown;
}
interface SqliteDatabase {
  prepare(text: string): SqliteStatement;
}

const TOP = 10;
/** Prepared statements kept on SQLite (readStatement's texts: a few shapes of query). */
const STATEMENTS = 16;
/** The statistics reader's thread is stopped after this long without a read (its memory freed). */
const READER_IDLE_MS = 60_000;
const LONG_RUN = 64;
const IN_LIST = 500;
/** IN lists are padded to a multiple of this (a few statement texts). */
const IN_STEP = 50;
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
export class StatisticsService implements OnApplicationShutdown {
  constructor(
    private readonly ds: DataSource,
    private readonly shorts: ShortAccessService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Optional() private readonly failures?: FailureReporter,
  ) {}

  /** The reads' thread of a SQLite file (null: another engine, or SQLite in memory); made at first use. */
  private reader?: SqliteReader | null;

  async onApplicationShutdown(): Promise<void> {
    await this.reader?.close();
  }

  /** Prepared statements of readStatement on SQLite (as jsonRowsOf), by text; at most STATEMENTS. */
  private readonly statements = new Map<string, SqliteStatement>();

  /**
   * The rows of readStatement as arrays in its column order (`t, k, v, u, b, dim, name`). On SQLite
   * and PostgreSQL the database folds them into one JSON array (jsonRowsOf): a year by day is about
   * a thousand rows, and building each as a row in JavaScript (better-sqlite3's, pg's) cost more
   * than the statement's own reads; one JSON.parse of the text is cheaper. A SQLite file is read on
   * the reads' thread (SqliteReader: the statement does not hold the event loop), SQLite in memory
   * straight through better-sqlite3 (without TypeORM's query runner); should that fail (a busy
   * database, a lost thread), through TypeORM, which retries (sqlite-busy.ts). MariaDB answers
   * rows: its JSON_ARRAYAGG is cut at group_concat_max_len, and with that lifted (SET STATEMENT)
   * the app saved 7-11 % of its CPU but the server's JSON made the answer slower
   * (docs/performance.md).
   */
  private async rowsOf(text: string, params: unknown[]): Promise<unknown[][]> {
    const engine = engineOf(this.ds);
    const json = jsonRowsOf(engine, COLUMNS, text);
    if (json === undefined) {
      const rows: Array<Record<string, unknown>> = await this.ds.query(
        dialectSql(engine, text),
        params,
      );
      return rows.map((r) => COLUMNS.map((c) => r[c]));
    }
    if (engine === 'sqlite') {
      const reader = this.sqliteReader();
      try {
        return parsedRows(
          reader ? await reader.read(json, params) : this.statement(json).get(...params),
        );
      } catch {
        // TypeORM's path below: its retry, its errors.
      }
    }
    const [row] = (await this.ds.query(dialectSql(engine, json), params)) as Array<{ j: unknown }>;
    return parsedRows(row?.j);
  }

  /**
   * The reads' thread of a SQLite file, or null. Its own connection sees what is committed, as
   * the app's does outside a transaction; the statistics writer's thread writes on a third one.
   */
  private sqliteReader(): SqliteReader | null {
    if (this.reader === undefined) {
      const file = (this.ds.options as { database?: unknown }).database;
      this.reader =
        typeof file === 'string' && file && file !== ':memory:'
          ? new SqliteReader({
              file,
              timeoutMs: this.config.dbTimeoutMs,
              cacheKib: SQLITE_CACHE_KIB,
              statements: STATEMENTS,
              idleMs: READER_IDLE_MS,
              onLost: (reason) =>
                this.failures?.background(
                  new Error(`The statistics reader's thread ${reason}`),
                  'Reading statistics',
                  StatisticsService.name,
                ),
            })
          : null;
    }
    return this.reader;
  }

  private statement(text: string): SqliteStatement {
    let st = this.statements.get(text);
    if (!st) {
      const db = (this.ds.driver as unknown as { databaseConnection: SqliteDatabase })
        .databaseConnection;
      st = db.prepare(text).pluck(true);
      if (this.statements.size >= STATEMENTS) {
        this.statements.delete(this.statements.keys().next().value as string);
      }
      this.statements.set(text, st);
    }
    return st;
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
    return this.compute(await this.shorts.findOwnedId(id, caller), range);
  }

  async compute(shortId: string, r: StatisticsRange, now = Date.now()): Promise<StatisticsDto> {
    const starts = bucketStarts(r.fromMs, r.toMs, r.granularity, r.tz);
    const first = starts[0] ?? r.fromMs;
    // Each bucket covers whole hours [bounds[i], bounds[i + 1]), summed from the daily rollup and
    // the hours at its edges (coverPlan).
    const bounds = starts.map((ms, i) =>
      i === 0 ? Math.floor(ms / HOUR_MS) : Math.ceil(ms / HOUR_MS),
    );
    bounds.push(Math.ceil(r.toMs / HOUR_MS));
    const dailyFrom = Math.ceil((now - this.config.stats.retentionDays * DAY_MS) / DAY_MS);
    const plan = coverPlan(bounds, dailyFrom);
    const cover = valueCover(
      Math.floor(first / DAY_MS),
      Math.floor((r.toMs - 1) / DAY_MS),
      dailyFrom,
    );
    // One statement (one round trip on MariaDB and PostgreSQL) for the rows of the series and the
    // sums of the values.
    const { text, params } = readStatement(shortId, plan, cover);
    const rows = text ? await this.rowsOf(text, params) : [];

    // sums[3 * bucket + c]: visits, visitors, bots of each bucket.
    const sums = new Float64Array(3 * starts.length);
    const add = (bucket: number | undefined, sign: 1 | -1, row: unknown[]) => {
      if (bucket === undefined) return;
      sums[3 * bucket] += sign * Number(row[V]);
      sums[3 * bucket + 1] += sign * Number(row[U]);
      sums[3 * bucket + 2] += sign * Number(row[B]);
    };
    const counts = new Map<string, Map<string, number>>();
    for (const row of rows) {
      const kind = Number(row[T]);
      if (kind === VALUE_ROW) {
        const dim = String(row[DIM]);
        let byName = counts.get(dim);
        if (!byName) counts.set(dim, (byName = new Map()));
        const name = String(row[NAME]);
        byName.set(name, (byName.get(name) ?? 0) + Number(row[V]));
      } else if (kind === DAY_ROW) {
        add(plan.days.get(Number(row[K])), 1, row);
      } else {
        // An hour read is added to the bucket holding it, taken from the one that used its day, or both.
        const hour = Number(row[K]);
        add(plan.hoursIn.get(hour), 1, row);
        add(plan.hoursOut.get(hour), -1, row);
      }
    }
    const iso = new IsoWriter();
    const total = { visits: 0, visitors: 0, bots: 0 };
    const series = starts.map((s, i) => {
      const b = {
        start: iso.write(s),
        visits: sums[3 * i],
        visitors: sums[3 * i + 1],
        bots: sums[3 * i + 2],
      };
      total.visits += b.visits;
      total.visitors += b.visitors;
      total.bots += b.bots;
      return b;
    });
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
      const entries = [...(counts.get(dim) ?? [])].map(([name, count]) => ({ name, count }));
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
 * longer is a range (the hours of `granularity=hour`); the others are index lookups by `IN` lists,
 * IN_LIST at a time, each padded to a multiple of IN_STEP with its last hour (an `IN` list is a
 * set: no row is read twice), so that few texts of statement are prepared and kept. Lookups beat
 * one range filtered by the hour of the day, which reads every hour of the range: the 584 edge
 * hours of a year by Berlin days took 1.7 against 8.1 ms on MariaDB and 2.7 against 4.0 ms on
 * PostgreSQL, about even on SQLite (the bench's year of hourly rows; docs/performance.md).
 */
export function hourQueries(hours: number[]): Array<{ where: string; params: number[] }> {
  hours.sort((a, b) => a - b);
  const queries: Array<{ where: string; params: number[] }> = [];
  const single: number[] = [];
  for (let i = 0; i < hours.length;) {
    let j = i;
    while (j + 1 < hours.length && hours[j + 1] === hours[j] + 1) j++;
    if (j - i + 1 >= LONG_RUN)
      queries.push({ where: 'hour_no >= ? AND hour_no <= ?', params: [hours[i], hours[j]] });
    else single.push(...hours.slice(i, j + 1));
    i = j + 1;
  }
  for (let i = 0; i < single.length; i += IN_LIST) {
    const list = single.slice(i, i + IN_LIST);
    const last = list[list.length - 1];
    while (list.length % IN_STEP !== 0) list.push(last);
    queries.push({ where: `hour_no IN (${placeholders(list.length)})`, params: list });
  }
  return queries;
}

/** readStatement's columns, in the order of a row as an array (rowsOf, jsonRowsOf). */
const COLUMNS = ['t', 'k', 'v', 'u', 'b', 'dim', 'name'] as const;
/** What a row of readStatement holds: `t` tells, `k` is the day or hour number. */
const [T, K, V, U, B, DIM, NAME] = [0, 1, 2, 3, 4, 5, 6];
const DAY_ROW = 0;
const HOUR_ROW = 1;
const VALUE_ROW = 2;

/**
 * The one statement that reads what a statistics answer sums, as rows `t, k, v, u, b, dim, name`:
 * the daily rows and hourly rows of the plan (`t` DAY_ROW or HOUR_ROW, `k` their number, `v, u, b`
 * visits, visitors, bots) and the value sums of the spans and days of the cover (`t` VALUE_ROW, `v`
 * the hits of `dim, name`), in this order. An empty text when there is nothing to read.
 */
function readStatement(
  shortId: string,
  plan: CoverPlan,
  cover: ReturnType<typeof valueCover>,
): { text: string; params: unknown[] } {
  const parts: string[] = [];
  const params: unknown[] = [];
  const counts = (kind: number, col: string, table: string, where: string, args: number[]) => {
    parts.push(
      `SELECT ${kind} AS t, ${col} AS k, visits AS v, visitors AS u, bots AS b, NULL AS dim, NULL AS name FROM ${table} WHERE short_id = ? AND ${where}`,
    );
    params.push(shortId, ...args);
  };
  const values = (table: string, col: string, range: [number, number]) => {
    parts.push(
      `SELECT ${VALUE_ROW} AS t, 0 AS k, SUM(hits) AS v, 0 AS u, 0 AS b, dim, name FROM ${table} WHERE short_id = ? AND ${col} >= ? AND ${col} <= ? GROUP BY dim, name`,
    );
    params.push(shortId, ...range);
  };
  if (plan.days.size > 0) {
    let lo = Infinity;
    let hi = -Infinity;
    for (const d of plan.days.keys()) {
      if (d < lo) lo = d;
      if (d > hi) hi = d;
    }
    counts(DAY_ROW, 'day_no', 'stats_daily', 'day_no >= ? AND day_no <= ?', [lo, hi]);
  }
  const hours = new Set([...plan.hoursIn.keys(), ...plan.hoursOut.keys()]);
  for (const { where, params: args } of hourQueries([...hours])) {
    counts(HOUR_ROW, 'hour_no', 'stats_hourly', where, args);
  }
  if (cover.spans) values('stats_value_spans', 'span_no', cover.spans);
  for (const range of cover.days) values('stats_values', 'day_no', range);
  return { text: parts.join(' UNION ALL '), params };
}

/** jsonRowsOf's answer as rows: a JSON text (SQLite), the array pg parsed, or none (NULL). */
function parsedRows(j: unknown): unknown[][] {
  if (j === null || j === undefined) return [];
  return (typeof j === 'string' ? JSON.parse(j) : j) as unknown[][];
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
