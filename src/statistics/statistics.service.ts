import { Inject, Injectable, type OnApplicationShutdown, Optional } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
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
import { statisticsAnswer, type StatisticsList } from './statistics-answer';
import { PgNamedStatements } from '../database/pg-named';
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
/**
 * Plans of ranges kept (readPlan): a year by day's is about 100 KB (its maps, statement and
 * texts), so 32 of them bound the cache at a few MB.
 */
const PLANS = 32;
/** Stand-ins for a subject's parameters in a kept statement (readPlan); replaced per request. */
const SUBJECT_PARAMS = [Symbol('subject 0'), Symbol('subject 1'), Symbol('subject 2')];

/** A range's plan (readPlan): where the rows go, the statement, the buckets' starts as text. */
interface ReadPlan {
  plan: CoverPlan;
  /** The statement as the engine is sent it (StatementText); none when there is nothing to read. */
  statement: StatementText | undefined;
  params: unknown[];
  isoStarts: string[];
}

/**
 * readStatement's text as an engine is sent it: folded into one JSON text (jsonRowsOf) on SQLite
 * and PostgreSQL, with PostgreSQL's numbered parameters (dialectSql). Made once per kept plan, not
 * per request: on PostgreSQL renumbering a year's 600 parameters made a new 4.5 KB text each time.
 */
interface StatementText {
  sql: string;
  /** Whether its answer is one row whose `j` holds the rows as JSON (jsonRowsOf). */
  json: boolean;
}
/** Prepared statements kept on SQLite (readStatement's texts: a few shapes of query). */
const STATEMENTS = 16;
/**
 * Texts of readStatement prepared by name on PostgreSQL (pgAnswer). A name is never given to
 * another text (pg refuses a known name with another text, and each pooled connection keeps what
 * it prepared), so past this many texts the others are sent unnamed.
 */
const PG_STATEMENTS = 32;

/** The statistics reader's thread is stopped after this long without a read (its memory freed). */
const READER_IDLE_MS = 60_000;
const LONG_RUN = 64;
const IN_LIST = 500;
/** IN lists are padded to a multiple of this (a few statement texts). */
const IN_STEP = 50;
const LISTS: Array<[StatisticsList, Dimension]> = [
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

  /** Plans of ranges by what they are made from (readPlan); at most PLANS. */
  private readonly plans = new LRUCache<string, ReadPlan>({ max: PLANS });

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
  private async rowsOf({ sql, json }: StatementText, params: unknown[]): Promise<unknown[][]> {
    if (!json) {
      const rows: Array<Record<string, unknown>> = await this.ds.query(sql, params);
      return rows.map((r) => COLUMNS.map((c) => r[c]));
    }
    if (engineOf(this.ds) === 'sqlite') {
      const reader = this.sqliteReader();
      try {
        return parsedRows(
          reader ? await reader.read(sql, params) : this.statement(sql).get(...params),
        );
      } catch {
        // TypeORM's path below: its retry, its errors.
      }
    }
    if (engineOf(this.ds) === 'postgres') return parsedRows(await this.pgAnswer(sql, params));
    const [row] = (await this.ds.query(sql, params)) as Array<{ j: unknown }>;
    return parsedRows(row?.j);
  }

  /**
   * readStatement's texts by name on PostgreSQL: a year's single hours are one array parameter
   * (readStatement), so the texts are few (a shape per kind of range).
   */
  private pgNamed?: PgNamedStatements;

  /** The `j` of readStatement's answer on PostgreSQL, as a named statement (PgNamedStatements). */
  private async pgAnswer(sql: string, params: unknown[]): Promise<unknown> {
    this.pgNamed ??= new PgNamedStatements(this.ds, 'url_shorter_statistics', PG_STATEMENTS);
    const [row] = await this.pgNamed.query<{ j?: unknown }>(sql, params);
    return row?.j;
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
    return (await this.computeFor(oneShort(shortId), r, now)).answer;
  }

  /**
   * The statistics of the shorts of `space` (`u:{ownerId}`, `t:{teamId}`: short_tags' space) that
   * carry the tag whose key is `tag`, summed (in SQL: a row per day, hour and value, whatever the
   * count of shorts), with the TOP shorts by visits in the range.
   */
  async computeTagged(
    space: string,
    tag: string,
    r: StatisticsRange,
    now = Date.now(),
  ): Promise<{ answer: StatisticsDto; shorts: ShortVisitsEntry[] }> {
    return this.computeFor(taggedShorts(space, tag), r, now);
  }

  /** A statistics answer of `subject` (one short, or many summed), and its top shorts (of many). */
  private async computeFor(
    subject: StatsSubject,
    r: StatisticsRange,
    now: number,
  ): Promise<{ answer: StatisticsDto; shorts: ShortVisitsEntry[] }> {
    const starts = bucketStarts(r.fromMs, r.toMs, r.granularity, r.tz);
    const dailyFrom = Math.ceil((now - this.config.stats.retentionDays * DAY_MS) / DAY_MS);
    const {
      plan,
      statement,
      params: template,
      isoStarts,
    } = this.readPlan(subject, r, starts, dailyFrom);
    // The subject's parameters into the plan's copy of its statement's (SUBJECT_PARAMS).
    const params = template.map((p) => {
      const at = typeof p === 'symbol' ? SUBJECT_PARAMS.indexOf(p) : -1;
      return at < 0 ? p : subject.params[at];
    });
    const rows = statement ? await this.rowsOf(statement, params) : [];

    // sums[3 * bucket + c]: visits, visitors, bots of each bucket.
    const sums = new Float64Array(3 * starts.length);
    const add = (bucket: number | undefined, sign: 1 | -1, row: unknown[]) => {
      if (bucket === undefined) return;
      sums[3 * bucket] += sign * Number(row[V]);
      sums[3 * bucket + 1] += sign * Number(row[U]);
      sums[3 * bucket + 2] += sign * Number(row[B]);
    };
    const counts = new Map<string, Map<string, number>>();
    const top: ShortVisitsEntry[] = [];
    const filler: ShortVisitsEntry[] = [];
    for (const row of rows) {
      const kind = Number(row[T]);
      if (kind === SHORT_ROW || kind === FILLER_ROW) {
        const entry = { id: String(row[DIM]), code: String(row[NAME]), visits: Number(row[V]) };
        (kind === SHORT_ROW ? top : filler).push(entry);
      } else if (kind === VALUE_ROW) {
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
    const lists: Partial<Record<StatisticsList, StatsEntryDto[]>> = {};
    for (const [field, dim] of LISTS) {
      const entries = [...(counts.get(dim) ?? [])].map(([name, count]) => ({ name, count }));
      lists[field] = topWithOther(entries);
    }
    const answer = statisticsAnswer(r, starts, sums, lists, isoStarts);
    return { answer, shorts: topShorts(top, filler) };
  }

  /**
   * What a range reads and where each row goes, made once per range and kind of subject (PLANS
   * kept): the cover plan, the statement with SUBJECT_PARAMS in the subject's places, and the
   * buckets' starts as text. None of it depends on the short (nor on the data), so a range asked
   * again (a page reloaded, the default last 30 days of another short within the same hour) does
   * not plan again: for a year by day the plan, the statement's text and its 600 parameters and
   * the 366 start texts were about a fifth of the request's CPU beside the database's and a good
   * part of its garbage. The key holds whatever they are made from: the subject's statement
   * shape, the granularity, the zone, the first start and the number of starts (which fix the
   * starts), the last hour and day of the range and the first day whose daily rows may be used.
   */
  private readPlan(
    subject: StatsSubject,
    r: StatisticsRange,
    starts: readonly number[],
    dailyFrom: number,
  ): ReadPlan {
    const first = starts[0] ?? r.fromMs;
    const lastHour = Math.ceil(r.toMs / HOUR_MS);
    const lastDay = Math.floor((r.toMs - 1) / DAY_MS);
    const key = [
      subject.where,
      subject.members ?? '',
      r.granularity,
      r.tz,
      first,
      starts.length,
      lastHour,
      lastDay,
      dailyFrom,
    ].join('|');
    const known = this.plans.get(key);
    if (known) return known;
    // Each bucket covers whole hours [bounds[i], bounds[i + 1]), summed from the daily rollup and
    // the hours at its edges (coverPlan).
    const bounds = starts.map((ms, i) =>
      i === 0 ? Math.floor(ms / HOUR_MS) : Math.ceil(ms / HOUR_MS),
    );
    bounds.push(lastHour);
    const plan = coverPlan(bounds, dailyFrom);
    const cover = valueCover(Math.floor(first / DAY_MS), lastDay, dailyFrom);
    // One statement (one round trip on MariaDB and PostgreSQL) for the rows of the series and the
    // sums of the values.
    if (subject.params.length > SUBJECT_PARAMS.length) {
      throw new Error(`a statistics subject has at most ${SUBJECT_PARAMS.length} parameters`);
    }
    const placed = { ...subject, params: SUBJECT_PARAMS.slice(0, subject.params.length) };
    const iso = new IsoWriter();
    const engine = engineOf(this.ds);
    const { text, params } = readStatement(placed, plan, cover, engine === 'postgres');
    const json = jsonRowsOf(engine, COLUMNS, text);
    const made: ReadPlan = {
      plan,
      statement: text
        ? { sql: dialectSql(engine, json ?? text), json: json !== undefined }
        : undefined,
      params,
      isoStarts: starts.map((ms) => iso.write(ms)),
    };
    this.plans.set(key, made);
    return made;
  }

  /** The series as CSV: `start,visits,visitors,bots`, one line per bucket. */
  async csvForShort(id: string, caller: Actor | null, q: StatisticsQuery): Promise<string> {
    return seriesCsv(await this.forShort(id, caller, q));
  }
}

/** A statistics answer's series as CSV: `start,visits,visitors,bots`, one line per bucket. */
export function seriesCsv(s: StatisticsDto): string {
  return (
    [
      'start,visits,visitors,bots',
      ...s.series.map((b) => `${b.start},${b.visits},${b.visitors},${b.bots}`),
    ].join('\r\n') + '\r\n'
  );
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
const SHORT_ROW = 3;
const FILLER_ROW = 4;

/**
 * Whose rows a statement reads: one short (`short_id = ?`), or the shorts of a space that carry a
 * tag (through short_tags' index on space and tag), whose rows are summed in SQL (`members`).
 */
export interface StatsSubject {
  /** The condition on a statistics table's `short_id`. */
  where: string;
  params: readonly unknown[];
  /** Of many shorts: the statement that lists their ids (with the same parameters). */
  members?: string;
}

export const oneShort = (id: string): StatsSubject => ({ where: 'short_id = ?', params: [id] });

const TAGGED = 'SELECT short_id FROM short_tags WHERE space = ? AND tag = ?';
export const taggedShorts = (space: string, tag: string): StatsSubject => ({
  where: `short_id IN (${TAGGED})`,
  params: [space, tag],
  members: TAGGED,
});

/** A short of many and its visits in the range (the tag statistics' top list). */
export interface ShortVisitsEntry {
  id: string;
  code: string;
  visits: number;
}

/**
 * Values of a dimension kept apart when the rows of many shorts are summed: the largest, the rest
 * summed as `other` in SQL (a tag's shorts may bring thousands of referrers). topWithOther keeps
 * 10 of them; the margin keeps its order by name among equal counts.
 */
const VALUES_KEPT = 50;

/** Days as ranges of consecutive days (`[from, to]`), in order. */
function dayRuns(days: Iterable<number>): Array<[number, number]> {
  const sorted = [...days].sort((a, b) => a - b);
  const runs: Array<[number, number]> = [];
  for (const d of sorted) {
    const last = runs[runs.length - 1];
    if (last && d === last[1] + 1) last[1] = d;
    else runs.push([d, d]);
  }
  return runs;
}

/**
 * The one statement that reads what a statistics answer sums, as rows `t, k, v, u, b, dim, name`:
 * the daily rows and hourly rows of the plan (`t` DAY_ROW or HOUR_ROW, `k` their number, `v, u, b`
 * visits, visitors, bots) and the value sums of the spans and days of the cover (`t` VALUE_ROW, `v`
 * the hits of `dim, name`), in this order. Of many shorts (a tag's) the rows are summed per day,
 * hour and value, the values beyond VALUES_KEPT per dimension as `other`, and the TOP shorts by
 * visits in the range follow (`t` SHORT_ROW: `dim` the id, `name` the code, `v` the visits), then
 * TOP shorts in id order (`t` FILLER_ROW) to fill the list up when fewer have visits. An empty
 * text when there is nothing to read.
 */
function readStatement(
  subject: StatsSubject,
  plan: CoverPlan,
  cover: ReturnType<typeof valueCover>,
  arrays = false,
): { text: string; params: unknown[] } {
  const parts: string[] = [];
  const params: unknown[] = [];
  const of = subject.where;
  const many = subject.members;
  const counts = (kind: number, col: string, table: string, where: string, args: unknown[]) => {
    parts.push(
      many
        ? `SELECT ${kind} AS t, ${col} AS k, SUM(visits) AS v, SUM(visitors) AS u, SUM(bots) AS b, NULL AS dim, NULL AS name FROM ${table} WHERE ${of} AND ${where} GROUP BY ${col}`
        : `SELECT ${kind} AS t, ${col} AS k, visits AS v, visitors AS u, bots AS b, NULL AS dim, NULL AS name FROM ${table} WHERE ${of} AND ${where}`,
    );
    params.push(...subject.params, ...args);
  };
  // Of many shorts, an IN list of hours is a filter on each short's range of hours (one index range
  // per short), not an index lookup per hour and short (PostgreSQL probed 50 hours of each of
  // 100,000 shorts: 10 million buffer reads).
  const hourLookups = (list: number[]): Array<{ where: string; params: unknown[] }> => {
    const queries = hourQueries(list);
    const lists = queries.filter((q) => q.where.startsWith('hour_no IN'));
    const ranges = queries.filter((q) => !q.where.startsWith('hour_no IN'));
    if (arrays && lists.length) {
      // PostgreSQL: the single hours as one array parameter (index lookups all the same), so
      // that the text is one for any number of hours and the statement is kept prepared
      // (pgRows) rather than parsed and planned with 600 parameters each time.
      const hours = [...new Set(lists.flatMap((q) => q.params))];
      const lookup = many === undefined ? 'hour_no' : 'hour_no + 0';
      const bounds = many === undefined ? '' : 'hour_no >= ? AND hour_no <= ? AND ';
      const args: unknown[] = many === undefined ? [] : [hours[0], hours[hours.length - 1]];
      return [
        ...ranges,
        { where: `${bounds}${lookup} = ANY(?::integer[])`, params: [...args, hours] },
      ];
    }
    return queries.map((q) => {
      if (many === undefined || !q.where.startsWith('hour_no IN')) return q;
      const lo = Math.min(...q.params);
      const hi = Math.max(...q.params);
      return {
        where: `hour_no >= ? AND hour_no <= ? AND hour_no + 0 ${q.where.slice('hour_no '.length)}`,
        params: [lo, hi, ...q.params],
      };
    });
  };
  const valueSources: Array<{ table: string; col: string; range: [number, number] }> = [];
  if (cover.spans)
    valueSources.push({ table: 'stats_value_spans', col: 'span_no', range: cover.spans });
  for (const range of cover.days)
    valueSources.push({ table: 'stats_values', col: 'day_no', range });

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
  for (const { where, params: args } of hourLookups([...hours])) {
    counts(HOUR_ROW, 'hour_no', 'stats_hourly', where, args);
  }
  if (many === undefined) {
    for (const { table, col, range } of valueSources) {
      parts.push(
        `SELECT ${VALUE_ROW} AS t, 0 AS k, SUM(hits) AS v, 0 AS u, 0 AS b, dim, name FROM ${table} WHERE ${of} AND ${col} >= ? AND ${col} <= ? GROUP BY dim, name`,
      );
      params.push(...subject.params, ...range);
    }
    return { text: parts.join(' UNION ALL '), params };
  }

  // Many shorts: each value summed over all sources, ranked within its dimension (`other` last),
  // those past VALUES_KEPT summed as `other`.
  if (valueSources.length) {
    const sources = valueSources.map(({ table, col, range }) => {
      params.push(...subject.params, ...range);
      return `SELECT dim, name, hits FROM ${table} WHERE ${of} AND ${col} >= ? AND ${col} <= ?`;
    });
    const ranked = `SELECT a.dim AS dim, a.name AS name, SUM(a.hits) AS v, ROW_NUMBER() OVER (PARTITION BY a.dim ORDER BY CASE WHEN a.name = '${OTHER}' THEN 1 ELSE 0 END, SUM(a.hits) DESC, a.name) AS rn FROM (${sources.join(' UNION ALL ')}) a GROUP BY a.dim, a.name`;
    const folded = `SELECT g.dim AS dim, CASE WHEN g.rn <= ${VALUES_KEPT} THEN g.name ELSE '${OTHER}' END AS name, g.v AS v FROM (${ranked}) g`;
    parts.push(
      `SELECT ${VALUE_ROW} AS t, 0 AS k, SUM(r.v) AS v, 0 AS u, 0 AS b, r.dim AS dim, r.name AS name FROM (${folded}) r GROUP BY r.dim, r.name`,
    );
  }

  // The top shorts by their visits in the range: the plan's days, plus its hours in, minus its
  // hours out (the same rows the series sums).
  const visits: string[] = [];
  const runs = dayRuns(plan.days.keys());
  if (runs.length) {
    visits.push(
      `SELECT short_id, visits AS v FROM stats_daily WHERE ${of} AND (${runs.map(() => '(day_no >= ? AND day_no <= ?)').join(' OR ')})`,
    );
    params.push(...subject.params, ...runs.flat());
  }
  for (const [map, sign] of [
    [plan.hoursIn, ''],
    [plan.hoursOut, '-'],
  ] as const) {
    for (const { where, params: args } of hourLookups([...map.keys()])) {
      visits.push(`SELECT short_id, ${sign}visits AS v FROM stats_hourly WHERE ${of} AND ${where}`);
      params.push(...subject.params, ...args);
    }
  }
  if (visits.length) {
    parts.push(
      `SELECT ${SHORT_ROW} AS t, 0 AS k, x.v AS v, 0 AS u, 0 AS b, x.short_id AS dim, s.code AS name FROM (SELECT y.short_id AS short_id, SUM(y.v) AS v FROM (${visits.join(' UNION ALL ')}) y GROUP BY y.short_id ORDER BY SUM(y.v) DESC, y.short_id LIMIT ${TOP}) x JOIN shorts s ON s.id = x.short_id`,
    );
  }
  parts.push(
    `SELECT ${FILLER_ROW} AS t, 0 AS k, 0 AS v, 0 AS u, 0 AS b, z.short_id AS dim, s.code AS name FROM (${many} ORDER BY short_id LIMIT ${TOP}) z JOIN shorts s ON s.id = z.short_id`,
  );
  params.push(...subject.params);
  return { text: parts.join(' UNION ALL '), params };
}

/**
 * The top shorts of many: those with visits in the range by visits (then id), filled up to TOP
 * with the others in id order (visits 0).
 */
function topShorts(top: ShortVisitsEntry[], filler: ShortVisitsEntry[]): ShortVisitsEntry[] {
  const list = top
    .filter((e) => e.visits > 0)
    .sort((a, b) => b.visits - a.visits || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const listed = new Set(list.map((e) => e.id));
  for (const e of filler.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))) {
    if (list.length >= TOP) break;
    if (!listed.has(e.id)) list.push({ ...e, visits: 0 });
  }
  return list.slice(0, TOP);
}

/** jsonRowsOf's answer as rows: its JSON text (an array a driver parsed as it is), or none (NULL). */
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
