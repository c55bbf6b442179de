import { createHmac, randomBytes } from 'node:crypto';
import { BoundedMap } from '../common/bounded-map';
import { applyOnce, type BatchRunner, type BatchSource } from '../database/apply-once';
import {
  columnArrays,
  dialectSql,
  type Engine,
  engineOf,
  type EngineSource,
  insertIgnoring,
  mysqlReturns,
  pgInsertIgnoringArrays,
  pgUpsertAddingArrays,
  placeholders,
  upsertAdding,
} from '../database/dialect';
import { isForeignKeyViolation } from '../database/errors';
import { VALUE_SPAN_DAYS } from './rollups';
import { cutValue, dayOfHour, type Dimension, OTHER, SEP, VALUE_CAP } from './traits';

/** Separator of the parts of an aggregate key (no header value can hold it). */
export { SEP };

/**
 * The keys of the in-memory aggregate (CountBuffer), one per distinct thing counted:
 * - `h␟short␟hour␟visits|bots`: the hourly counts;
 * - `d␟short␟day␟dimension␟value`: referrer hosts and countries per day;
 * - `u␟short␟day␟browser␟os␟device`: the traits of the user agents (parseAgent's `traits`: the
 *   agent is parsed when the follow is recorded and never kept);
 * - `v␟short␟hour␟visitor`: a visitor's unsalted digest, salted and stored as the day's hash in
 *   the flush (new hashes count as visitors in that hour);
 * - `n␟short`: uses of an unlimited short (its `uses` column), written in the same transaction.
 *
 * Built with `join`, which makes one flat string: a template literal makes a tree of string pieces
 * (a node of 32 bytes per part), which V8 keeps as the map's key. A key of the bench's cache misses
 * took 276 bytes of heap so, 149 joined, and a backlog of these keys is all the heap that grows
 * when the writer falls behind (docs/performance.md, "Memory").
 */
export const keys = {
  hourly: (short: string, hour: number, field: 'visits' | 'bots') =>
    ['h', short, hour, field].join(SEP),
  value: (short: string, day: number, dim: Dimension, value: string) =>
    ['d', short, day, dim, value].join(SEP),
  agent: (short: string, day: number, traits: string) => ['u', short, day, traits].join(SEP),
  visitor: (short: string, hour: number, digest: string) => ['v', short, hour, digest].join(SEP),
  uses: (short: string) => ['n', short].join(SEP),
};

/** Adds use counts to `shorts.uses` inside the batch's transaction (the shorts module's query). */
export type UsesWriter<R extends BatchRunner = BatchRunner> = (
  runner: R,
  counts: ReadonlyMap<string, number>,
) => Promise<void>;

interface Hourly {
  visits: number;
  visitors: number;
  bots: number;
}

/** `limit` parts split off the front; the last part keeps any separators. */
function split(key: string, limit: number): string[] {
  const parts = key.split(SEP);
  return parts.length <= limit
    ? parts
    : [...parts.slice(0, limit - 1), parts.slice(limit - 1).join(SEP)];
}

/**
 * Writes one batch of statistics aggregates in one transaction, exactly once (applyOnce), as a few
 * multi-row statements per table whatever the batch holds: upserts of hourly buckets and daily
 * values (capped at VALUE_CAP distinct values per dimension, short and day; the rest counted as
 * `other`; the names stored are read once per batch), and the day's visitor hashes (HMAC-SHA256
 * under the day's random salt, shared by all instances through `stats_salts`), inserted with
 * RETURNING so that the rows inserted are the new visitors.
 *
 * Aggregates of shorts deleted meanwhile are dropped: the shorts module tells every instance of a
 * deletion (`gone`); a short whose event did not arrive (an instance without Redis) makes its
 * batch fail on the foreign key, and then the shorts module is asked which of the batch's shorts
 * still exist, and the batch is written again without the others.
 */
export class StatsWriter<R extends BatchRunner = BatchRunner> {
  private readonly engine: Engine;
  private readonly salts = new Map<number, Buffer>();
  /** Shorts deleted lately (a day is long enough for any buffered aggregate of theirs). */
  private readonly deleted = new BoundedMap<string, true>(100_000, 86_400_000);
  /** Whether the database answers INSERT … RETURNING (asked once, MySQL/MariaDB only). */
  private returning?: boolean;

  constructor(
    /** A TypeORM DataSource, or the statistics thread's SqliteBatchSource. */
    private readonly ds: BatchSource<R> & EngineSource,
    /** Which of these short ids exist (asked only after a foreign-key failure). */
    private readonly existing: (ids: readonly string[]) => Promise<Set<string>>,
    /** Writes the batch's use counts (`n` keys); without one, a batch with use counts fails. */
    private readonly addUses: UsesWriter<R> = () =>
      Promise.reject(new Error('A batch with use counts, but no writer for them')),
  ) {
    this.engine = engineOf(ds);
  }

  /** Shorts that are gone: their aggregates are dropped from now on. */
  gone(ids: Iterable<string>): void {
    for (const id of ids) this.deleted.set(id, true);
  }

  write = async (batchId: string, counts: ReadonlyMap<string, number>): Promise<boolean> => {
    const once = () => applyOnce(this.ds, batchId, (runner) => this.apply(runner, counts));
    const ids = [...new Set([...counts.keys()].map((k) => k.split(SEP)[1]))];
    const goneBefore = ids.filter((id) => this.deleted.has(id)).length;
    try {
      return await once();
    } catch (err) {
      if (!isForeignKeyViolation(err)) throw err;
      // Nothing was written. A deletion heard while the batch ran is enough to write the rest.
      if (ids.filter((id) => this.deleted.has(id)).length > goneBefore) {
        try {
          return await once();
        } catch (again) {
          if (!isForeignKeyViolation(again)) throw again;
        }
      }
      // Else learn which shorts are gone and write the batch without them.
      const live = await this.existing(ids);
      this.gone(ids.filter((id) => !live.has(id)));
      return once();
    }
  };

  private sql(runner: R, text: string, params: unknown[]) {
    return runner.query(dialectSql(this.engine, text), params, true);
  }

  private async apply(runner: R, counts: ReadonlyMap<string, number>): Promise<void> {
    const hourly = new Map<string, Hourly>();
    const values = new Map<string, number>(); // short␟day␟dim␟value
    const visitors: Array<[short: string, hour: number, digest: string]> = [];
    const shorts = new Set<string>();
    const uses = new Map<string, number>();
    const bucket = (short: string, hour: number) => {
      const k = `${short}${SEP}${hour}`;
      let b = hourly.get(k);
      if (!b) hourly.set(k, (b = { visits: 0, visitors: 0, bots: 0 }));
      return b;
    };
    const addValue = (short: string, day: number, dim: Dimension, value: string, n: number) => {
      const k = [short, day, dim, cutValue(value)].join(SEP);
      values.set(k, (values.get(k) ?? 0) + n);
    };
    for (const [key, n] of counts) {
      const kind = key.slice(0, 1);
      if (kind === 'h') {
        const [, short, hour, field] = split(key, 4);
        shorts.add(short);
        bucket(short, Number(hour))[field as 'visits' | 'bots'] += n;
      } else if (kind === 'd') {
        const [, short, day, dim, value] = split(key, 5);
        shorts.add(short);
        addValue(short, Number(day), dim as Dimension, value, n);
      } else if (kind === 'u') {
        const [, short, day, browser, os, device] = split(key, 6);
        shorts.add(short);
        addValue(short, Number(day), 'browser', browser, n);
        addValue(short, Number(day), 'os', os, n);
        addValue(short, Number(day), 'device', device, n);
      } else if (kind === 'v') {
        const [, short, hour, digest] = split(key, 4);
        shorts.add(short);
        visitors.push([short, Number(hour), digest]);
      } else if (kind === 'n') {
        uses.set(key.slice(2), n); // one key per short: no statistics row, no foreign key
      }
    }
    // A deleted short's UPDATE matches no row: its uses need no filter.
    if (uses.size) await this.addUses(runner, uses);
    const live = new Set([...shorts].filter((id) => !this.deleted.has(id)));

    // Visitors: the day's hashes, each (short, day, hash) once (the first hour it was seen in wins),
    // inserted in multi-row statements; the rows the database did insert are the new visitors.
    const fresh = new Map<string, [short: string, hour: number, day: number, hash: string]>();
    for (const [short, hour, digest] of visitors) {
      if (!live.has(short)) continue;
      const day = dayOfHour(hour);
      const hash = createHmac('sha256', await this.salt(runner, day))
        .update(digest)
        .digest('base64url');
      const k = [short, day, hash].join(SEP);
      if (!fresh.has(k)) fresh.set(k, [short, hour, day, hash]);
    }
    for (const [short, hour] of await this.insertVisitors(runner, [...fresh.values()])) {
      bucket(short, hour).visitors += 1;
    }

    const hourlyRows: unknown[][] = [];
    for (const [k, b] of hourly) {
      const [short, hour] = k.split(SEP);
      if (live.has(short)) hourlyRows.push([short, Number(hour), b.visits, b.visitors, b.bots]);
    }
    await this.upsertRows(
      runner,
      'stats_hourly',
      ['short_id', 'hour_no', 'visits', 'visitors', 'bots'],
      COUNT_TYPES,
      ['short_id', 'hour_no'],
      ['visits', 'visitors', 'bots'],
      hourlyRows,
    );
    // The daily rollup, in the same transaction: always the sum of the day's hours.
    await this.upsertRows(
      runner,
      'stats_daily',
      ['short_id', 'day_no', 'visits', 'visitors', 'bots'],
      COUNT_TYPES,
      ['short_id', 'day_no'],
      ['visits', 'visitors', 'bots'],
      rollUp(hourlyRows, (hour) => dayOfHour(hour), 3),
    );

    // Values, capped per (short, day, dimension): the names already stored are read once for the
    // whole batch.
    const groups = new Map<string, Array<[string, number]>>();
    for (const [k, n] of values) {
      const [short, day, dim, value] = split(k, 4);
      if (!live.has(short)) continue;
      const g = `${short}${SEP}${day}${SEP}${dim}`;
      let list = groups.get(g);
      if (!list) groups.set(g, (list = []));
      list.push([value, n]);
    }
    const stored = await this.storedNames(runner, groups.keys());
    const valueRows: unknown[][] = [];
    for (const [g, list] of groups) {
      const [short, day, dim] = g.split(SEP);
      const known = stored.get(g) ?? new Set<string>();
      const merged = new Map<string, number>();
      for (const [value, n] of list) {
        let name = value;
        if (!known.has(value)) {
          const distinct = known.size - (known.has(OTHER) ? 1 : 0);
          if (value === OTHER || distinct >= VALUE_CAP) name = OTHER;
          known.add(name);
        }
        merged.set(name, (merged.get(name) ?? 0) + n);
      }
      for (const [name, n] of merged) valueRows.push([short, Number(day), dim, name, n]);
    }
    await this.upsertRows(
      runner,
      'stats_values',
      ['short_id', 'day_no', 'dim', 'name', 'hits'],
      VALUE_TYPES,
      ['short_id', 'day_no', 'dim', 'name'],
      ['hits'],
      valueRows,
    );
    await this.upsertRows(
      runner,
      'stats_value_spans',
      ['short_id', 'span_no', 'dim', 'name', 'hits'],
      VALUE_TYPES,
      ['short_id', 'span_no', 'dim', 'name'],
      ['hits'],
      rollUp(valueRows, (day) => Math.floor(day / VALUE_SPAN_DAYS), 1),
    );
  }

  /**
   * The names stored per group (`short␟day␟dim`) of this batch: one SELECT per chunk of shorts
   * (the days of a batch are one or two), filtered to the batch's groups here.
   */
  private async storedNames(
    runner: R,
    groupKeys: Iterable<string>,
  ): Promise<Map<string, Set<string>>> {
    const wanted = new Set(groupKeys);
    const shorts = new Set<string>();
    const days = new Set<number>();
    for (const g of wanted) {
      const [short, day] = g.split(SEP);
      shorts.add(short);
      days.add(Number(day));
    }
    const stored = new Map<string, Set<string>>();
    const dayList = [...days];
    for (const chunk of this.chunks([...shorts])) {
      const { records } =
        this.engine === 'postgres'
          ? await this.sql(
              runner,
              'SELECT short_id, day_no, dim, name FROM stats_values WHERE short_id = ANY(?::text[]) AND day_no = ANY(?::int[])',
              [chunk, dayList],
            )
          : await this.sql(
              runner,
              `SELECT short_id, day_no, dim, name FROM stats_values WHERE short_id IN (${placeholders(chunk.length)}) AND day_no IN (${placeholders(dayList.length)})`,
              [...chunk, ...dayList],
            );
      for (const r of records) {
        const g = [String(r.short_id), Number(r.day_no), String(r.dim)].join(SEP);
        if (!wanted.has(g)) continue;
        let names = stored.get(g);
        if (!names) stored.set(g, (names = new Set()));
        names.add(String(r.name));
      }
    }
    return stored;
  }

  /**
   * Inserts visitor hashes that are not stored yet and answers (short, hour) of each one inserted:
   * one multi-row `INSERT … RETURNING` per chunk (SQLite, PostgreSQL, MariaDB); on a MySQL server
   * without RETURNING, one statement per (short, hour), whose affected rows are its new visitors.
   */
  private async insertVisitors(
    runner: R,
    rows: ReadonlyArray<[short: string, hour: number, day: number, hash: string]>,
  ): Promise<Array<[string, number]>> {
    const inserted: Array<[string, number]> = [];
    if (rows.length === 0) return inserted;
    const columns = ['short_id', 'day_no', 'hash'];
    if (await this.returns(runner)) {
      const hourOf = new Map(rows.map(([s, h, d, x]) => [[s, d, x].join(SEP), h]));
      for (const chunk of this.chunks(rows)) {
        const { records } =
          this.engine === 'postgres'
            ? await runner.query(
                `${pgInsertIgnoringArrays('stats_visitors', columns, ['text', 'int', 'text'], columns)} RETURNING short_id, day_no, hash`,
                columnArrays(
                  chunk.map(([s, , d, x]) => [s, d, x]),
                  3,
                ),
                true,
              )
            : await this.sql(
                runner,
                `${insertIgnoring(this.engine, 'stats_visitors', columns, columns, chunk.length)} RETURNING short_id, day_no, hash`,
                chunk.flatMap(([s, , d, x]) => [s, d, x]),
              );
        for (const r of records) {
          const short = String(r.short_id);
          const hour = hourOf.get([short, Number(r.day_no), String(r.hash)].join(SEP));
          if (hour !== undefined) inserted.push([short, hour]);
        }
      }
      return inserted;
    }
    const byHour = new Map<string, Array<[string, number, string]>>();
    for (const [s, h, d, x] of rows) {
      const k = `${s}${SEP}${h}`;
      let list = byHour.get(k);
      if (!list) byHour.set(k, (list = []));
      list.push([s, d, x]);
    }
    for (const [k, list] of byHour) {
      const [short, hour] = k.split(SEP);
      for (const chunk of chunks(list, ROWS_PER_STATEMENT)) {
        const r = await this.sql(
          runner,
          insertIgnoring(this.engine, 'stats_visitors', columns, columns, chunk.length),
          chunk.flat(),
        );
        for (let i = affectedRows(r); i > 0; i--) inserted.push([short, Number(hour)]);
      }
    }
    return inserted;
  }

  /** Whether the engine answers `INSERT … RETURNING` (MySQL does not; MariaDB does from 10.5). */
  private async returns(runner: R): Promise<boolean> {
    if (this.engine !== 'mysql') return true;
    if (this.returning === undefined) {
      const { records } = await this.sql(runner, 'SELECT VERSION() AS v', []);
      this.returning = mysqlReturns(String(records[0]?.v ?? ''));
    }
    return this.returning;
  }

  /** The day's salt: read, or created by the first instance that needs it (the others read it). */
  private async salt(runner: R, day: number): Promise<Buffer> {
    const hit = this.salts.get(day);
    if (hit) return hit;
    const read = async () =>
      (await this.sql(runner, 'SELECT salt FROM stats_salts WHERE day_no = ?', [day])).records[0]
        ?.salt as string | undefined;
    let salt = await read();
    if (salt === undefined) {
      await this.sql(
        runner,
        insertIgnoring(this.engine, 'stats_salts', ['day_no', 'salt'], ['day_no']),
        [day, randomBytes(32).toString('base64url')],
      );
      salt = await read();
    }
    const buf = Buffer.from(salt as string, 'base64url');
    if (this.salts.size > 4) this.salts.clear();
    this.salts.set(day, buf);
    return buf;
  }

  /**
   * The rows of a batch in chunks, one multi-row statement each: on MySQL/MariaDB (whose driver
   * prepares nothing here) up to ROWS_PER_STATEMENT rows; on PostgreSQL, whose statements take
   * one array per column (a few parameters whatever the rows), up to PG_ROWS_PER_STATEMENT (a
   * batch's rows of a table in one statement); on SQLite in the sizes of
   * SQLITE_CHUNKS, so that the statements' texts repeat from one batch to the next and stay
   * prepared (SqliteBatchSource), instead of a new one per row count to prepare each time (about
   * 2.5 ms and 250 KB of SQLite's memory for 500 rows of 5 columns, kept until the next collection).
   */
  private chunks<T>(items: readonly T[]): Generator<T[]> {
    if (this.engine === 'sqlite') return chunksOfSizes(items, SQLITE_CHUNKS);
    return chunks(items, this.engine === 'postgres' ? PG_ROWS_PER_STATEMENT : ROWS_PER_STATEMENT);
  }

  /** Forgets salts this process holds (after the cleanup deleted old ones). */
  forgetSaltsBefore(day: number): void {
    for (const d of this.salts.keys()) if (d < day) this.salts.delete(d);
  }

  /**
   * Multi-row upserts that add to the stored counts, one statement per chunk of rows (on
   * PostgreSQL one array per column, of the element `types`).
   */
  private async upsertRows(
    runner: R,
    table: string,
    columns: string[],
    types: readonly string[],
    conflict: string[],
    adds: string[],
    rows: unknown[][],
  ): Promise<void> {
    for (const chunk of this.chunks(rows)) {
      if (this.engine === 'postgres') {
        const text = pgUpsertAddingArrays(table, columns, types, conflict, adds);
        await runner.query(text, columnArrays(chunk, columns.length), true);
        continue;
      }
      const text = upsertAdding(this.engine, table, columns, conflict, adds, chunk.length);
      await this.sql(runner, text, chunk.flat());
    }
  }
}

/**
 * Rows per multi-row statement: at most 5 columns, so 2,500 parameters, far below every engine's
 * limit (SQLite 32,766, MySQL and PostgreSQL 65,535).
 */
const ROWS_PER_STATEMENT = 500;

/**
 * Rows per statement on PostgreSQL (one array per column): what a batch of the recorder's 2,000
 * keys makes of a table in one statement (the values in two when the batch is nearly all user
 * agents, three rows each), and still a bounded one.
 */
const PG_ROWS_PER_STATEMENT = 5_000;

/** The PostgreSQL array types of the hourly and daily rows' columns (short, hour or day, counts). */
const COUNT_TYPES = ['text', 'int', 'int', 'int', 'int'];
/** The PostgreSQL array types of the values' and value spans' columns. */
const VALUE_TYPES = ['text', 'int', 'text', 'text', 'int'];

/** Rows per statement on SQLite, largest first: 437 rows are 4 × 100, 20, 3 × 5 and 2 × 1. */
export const SQLITE_CHUNKS = [ROWS_PER_STATEMENT, 100, 20, 5, 1];

function* chunks<T>(items: readonly T[], size: number): Generator<T[]> {
  for (let i = 0; i < items.length; i += size) yield items.slice(i, i + size);
}

/** Chunks of the given sizes (the largest that fits first; the last size is 1). */
export function* chunksOfSizes<T>(items: readonly T[], sizes: readonly number[]): Generator<T[]> {
  let i = 0;
  for (const size of sizes) {
    for (; items.length - i >= size; i += size) yield items.slice(i, i + size);
  }
}

/**
 * Rows `[short, unit, ...key parts, ...counts]` summed into coarser units: `unit` maps the second
 * column, the last `counts` columns are added up, the columns between them are part of the key.
 */
function rollUp(rows: unknown[][], unit: (n: number) => number, counts: number): unknown[][] {
  const sums = new Map<string, unknown[]>();
  for (const row of rows) {
    const key = [row[0], unit(row[1] as number), ...row.slice(2, row.length - counts)];
    const k = key.join(SEP);
    const sum = sums.get(k);
    if (!sum) {
      sums.set(k, [...key, ...row.slice(row.length - counts)]);
      continue;
    }
    for (let i = row.length - counts; i < row.length; i++) {
      sum[i] = (sum[i] as number) + (row[i] as number);
    }
  }
  return [...sums.values()];
}

/** Rows an INSERT wrote, whatever the driver calls it. */
function affectedRows(r: { affected?: number; raw: unknown }): number {
  if (typeof r.affected === 'number') return r.affected;
  const raw = r.raw as { affectedRows?: number; changes?: number; rowCount?: number } | undefined;
  return raw?.affectedRows ?? raw?.changes ?? raw?.rowCount ?? 0;
}
