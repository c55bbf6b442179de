import { createHmac, randomBytes } from 'node:crypto';
import type { DataSource, QueryRunner } from 'typeorm';
import { LRUCache } from 'lru-cache';
import { applyOnce } from '../database/apply-once';
import { dialectSql, type Engine, engineOf } from '../database/dialect';
import { isForeignKeyViolation } from '../database/errors';
import { AgentParser, cutValue, dayOfHour, type Dimension, OTHER, VALUE_CAP } from './traits';

/** Separator of the parts of an aggregate key (no header value can hold it). */
export const SEP = '\x1f';

/**
 * The keys of the in-memory aggregate (CountBuffer), one per distinct thing counted:
 * - `h␟short␟hour␟visits|bots`: the hourly counts;
 * - `d␟short␟day␟dimension␟value`: referrer hosts and countries per day;
 * - `u␟short␟day␟user agent`: user agents, parsed into browser, OS and device in the flush;
 * - `v␟short␟hour␟visitor`: a visitor's unsalted digest, salted and stored as the day's hash in
 *   the flush (new hashes count as visitors in that hour).
 */
export const keys = {
  hourly: (short: string, hour: number, field: 'visits' | 'bots') =>
    ['h', short, hour, field].join(SEP),
  value: (short: string, day: number, dim: Dimension, value: string) =>
    ['d', short, day, dim, value].join(SEP),
  agent: (short: string, day: number, userAgent: string) => ['u', short, day, userAgent].join(SEP),
  visitor: (short: string, hour: number, digest: string) => ['v', short, hour, digest].join(SEP),
};

interface Hourly {
  visits: number;
  visitors: number;
  bots: number;
}

/** `limit` parts split off the front; the last part keeps any separators (user agents). */
function split(key: string, limit: number): string[] {
  const parts = key.split(SEP);
  return parts.length <= limit
    ? parts
    : [...parts.slice(0, limit - 1), parts.slice(limit - 1).join(SEP)];
}

/**
 * Writes one batch of statistics aggregates in one transaction, exactly once (applyOnce): upserts
 * of hourly buckets and daily values (capped at VALUE_CAP distinct values per dimension, short and
 * day; the rest counted as `other`), and the day's visitor hashes (HMAC-SHA256 under the day's
 * random salt, shared by all instances through `stats_salts`).
 *
 * Aggregates of shorts deleted meanwhile are dropped: the shorts module tells every instance of a
 * deletion (`gone`); a short whose event did not arrive (an instance without Redis) makes its
 * batch fail on the foreign key, and then the shorts module is asked which of the batch's shorts
 * still exist, and the batch is written again without the others.
 */
export class StatsWriter {
  private readonly engine: Engine;
  private readonly salts = new Map<number, Buffer>();
  private readonly agents = new AgentParser();
  /** Shorts deleted lately (a day is long enough for any buffered aggregate of theirs). */
  private readonly deleted = new LRUCache<string, true>({ max: 100_000, ttl: 86_400_000 });

  constructor(
    private readonly ds: DataSource,
    /** Which of these short ids exist (asked only after a foreign-key failure). */
    private readonly existing: (ids: readonly string[]) => Promise<Set<string>>,
  ) {
    this.engine = engineOf(ds);
  }

  /** Shorts that are gone: their aggregates are dropped from now on. */
  gone(ids: Iterable<string>): void {
    for (const id of ids) this.deleted.set(id, true);
  }

  write = async (batchId: string, counts: ReadonlyMap<string, number>): Promise<boolean> => {
    const once = () => applyOnce(this.ds, batchId, (runner) => this.apply(runner, counts));
    try {
      return await once();
    } catch (err) {
      if (!isForeignKeyViolation(err)) throw err;
      // Nothing was written: learn which shorts are gone and write the batch without them.
      const ids = [...new Set([...counts.keys()].map((k) => k.split(SEP)[1]))];
      const live = await this.existing(ids);
      this.gone(ids.filter((id) => !live.has(id)));
      return once();
    }
  };

  private sql(runner: QueryRunner, text: string, params: unknown[]) {
    return runner.query(dialectSql(this.engine, text), params, true) as Promise<{
      records: Array<Record<string, unknown>>;
      affected?: number;
      raw: unknown;
    }>;
  }

  private async apply(runner: QueryRunner, counts: ReadonlyMap<string, number>): Promise<void> {
    const hourly = new Map<string, Hourly>();
    const values = new Map<string, number>(); // short␟day␟dim␟value
    const visitors: Array<[short: string, hour: number, digest: string]> = [];
    const shorts = new Set<string>();
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
        const [, short, day, ua] = split(key, 4);
        shorts.add(short);
        const agent = this.agents.parse(ua);
        addValue(short, Number(day), 'browser', agent.browser, n);
        addValue(short, Number(day), 'os', agent.os, n);
        addValue(short, Number(day), 'device', agent.device, n);
      } else if (kind === 'v') {
        const [, short, hour, digest] = split(key, 4);
        shorts.add(short);
        visitors.push([short, Number(hour), digest]);
      }
    }
    const live = new Set([...shorts].filter((id) => !this.deleted.has(id)));

    for (const [short, hour, digest] of visitors) {
      if (!live.has(short)) continue;
      const day = dayOfHour(hour);
      const hash = createHmac('sha256', await this.salt(runner, day))
        .update(digest)
        .digest('base64url');
      if (await this.insertIgnore(runner, short, day, hash)) bucket(short, hour).visitors += 1;
    }

    for (const [k, b] of hourly) {
      const [short, hour] = k.split(SEP);
      if (!live.has(short)) continue;
      await this.upsertHourly(runner, short, Number(hour), b);
    }

    // Values, capped per (short, day, dimension).
    const groups = new Map<string, Array<[string, number]>>();
    for (const [k, n] of values) {
      const [short, day, dim, value] = split(k, 4);
      if (!live.has(short)) continue;
      const g = `${short}${SEP}${day}${SEP}${dim}`;
      let list = groups.get(g);
      if (!list) groups.set(g, (list = []));
      list.push([value, n]);
    }
    for (const [g, list] of groups) {
      const [short, day, dim] = g.split(SEP);
      const known = new Set(
        (
          await this.sql(
            runner,
            'SELECT name FROM stats_values WHERE short_id = ? AND day_no = ? AND dim = ?',
            [short, Number(day), dim],
          )
        ).records.map((r) => String(r.name)),
      );
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
      for (const [name, n] of merged)
        await this.upsertValue(runner, short, Number(day), dim, name, n);
    }
  }

  /** The day's salt: read, or created by the first instance that needs it (the others read it). */
  private async salt(runner: QueryRunner, day: number): Promise<Buffer> {
    const hit = this.salts.get(day);
    if (hit) return hit;
    const read = async () =>
      (await this.sql(runner, 'SELECT salt FROM stats_salts WHERE day_no = ?', [day])).records[0]
        ?.salt as string | undefined;
    let salt = await read();
    if (salt === undefined) {
      await this.sql(runner, this.ignoring('stats_salts', ['day_no', 'salt'], ['day_no']), [
        day,
        randomBytes(32).toString('base64url'),
      ]);
      salt = await read();
    }
    const buf = Buffer.from(salt as string, 'base64url');
    if (this.salts.size > 4) this.salts.clear();
    this.salts.set(day, buf);
    return buf;
  }

  /** Forgets salts this process holds (after the cleanup deleted old ones). */
  forgetSaltsBefore(day: number): void {
    for (const d of this.salts.keys()) if (d < day) this.salts.delete(d);
  }

  private ignoring(table: string, columns: string[], conflict: string[]): string {
    const values = `(${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`;
    if (this.engine === 'mysql') return `INSERT IGNORE INTO ${table} ${values}`;
    if (this.engine === 'sqlite') return `INSERT OR IGNORE INTO ${table} ${values}`;
    return `INSERT INTO ${table} ${values} ON CONFLICT (${conflict.join(', ')}) DO NOTHING`;
  }

  private async insertIgnore(runner: QueryRunner, short: string, day: number, hash: string) {
    const r = await this.sql(
      runner,
      this.ignoring(
        'stats_visitors',
        ['short_id', 'day_no', 'hash'],
        ['short_id', 'day_no', 'hash'],
      ),
      [short, day, hash],
    );
    return affectedRows(r) > 0;
  }

  private upsert(table: string, columns: string[], keys: string[], adds: string[]): string {
    const values = `(${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`;
    if (this.engine === 'mysql') {
      return `INSERT INTO ${table} ${values} ON DUPLICATE KEY UPDATE ${adds.map((c) => `${c} = ${c} + VALUES(${c})`).join(', ')}`;
    }
    return `INSERT INTO ${table} ${values} ON CONFLICT (${keys.join(', ')}) DO UPDATE SET ${adds
      .map((c) => `${c} = ${table}.${c} + excluded.${c}`)
      .join(', ')}`;
  }

  private async upsertHourly(runner: QueryRunner, short: string, hour: number, b: Hourly) {
    await this.sql(
      runner,
      this.upsert(
        'stats_hourly',
        ['short_id', 'hour_no', 'visits', 'visitors', 'bots'],
        ['short_id', 'hour_no'],
        ['visits', 'visitors', 'bots'],
      ),
      [short, hour, b.visits, b.visitors, b.bots],
    );
  }

  private async upsertValue(
    runner: QueryRunner,
    short: string,
    day: number,
    dim: string,
    name: string,
    n: number,
  ) {
    await this.sql(
      runner,
      this.upsert(
        'stats_values',
        ['short_id', 'day_no', 'dim', 'name', 'hits'],
        ['short_id', 'day_no', 'dim', 'name'],
        ['hits'],
      ),
      [short, day, dim, name, n],
    );
  }
}

/** Rows an INSERT wrote, whatever the driver calls it. */
function affectedRows(r: { affected?: number; raw: unknown }): number {
  if (typeof r.affected === 'number') return r.affected;
  const raw = r.raw as { affectedRows?: number; changes?: number; rowCount?: number } | undefined;
  return raw?.affectedRows ?? raw?.changes ?? raw?.rowCount ?? 0;
}
