import { Inject, Injectable, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, QueryRunner } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../config/config';
import { applyOnce } from '../database/apply-once';
import { CountBuffer } from '../database/count-buffer';
import { dialectSql, engineOf, placeholders, upsertAdding } from '../database/dialect';
import { FailureReporter } from '../failure/failure-reporter';
import { checkStatisticsQuery, type StatisticsQuery } from '../statistics/statistics-query.dto';
import { statisticsAnswer } from '../statistics/statistics-answer';
import type { StatisticsDto } from '../statistics/statistics.dto';
import { HOUR_MS } from '../statistics/traits';
import { bucketStarts } from '../statistics/zoned';
import { ValidationFailedError } from '../common/errors';

/** How often the views counted in memory are written. */
export const PAGE_VIEWS_FLUSH_MS = 1_000;
/** Distinct (page, hour) keys kept in memory at most; views of other pages beyond are not counted. */
export const PAGE_VIEWS_MAX_KEYS = 50_000;
/** Rows per upsert statement. */
const ROWS_PER_STATEMENT = 200;

/**
 * Page views (CONTRACT "Marketing links": counted like a follow's aggregate): counted in memory per
 * page and UTC hour (views by people, bots apart) and written about once a second in batches,
 * exactly once (CountBuffer + applyOnce) to `page_views`; a view never waits for a write. Views of
 * a page deleted before the batch are dropped with it. `STATS=false` counts nothing.
 */
@Injectable()
export class PageViews implements OnModuleInit, OnApplicationShutdown {
  private readonly buffer = new CountBuffer();
  private readonly enabled: boolean;
  private timer?: NodeJS.Timeout;

  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly failures: FailureReporter,
  ) {
    this.enabled = config.stats.enabled;
  }

  onModuleInit(): void {
    this.timer = setInterval(() => void this.tick(), PAGE_VIEWS_FLUSH_MS);
    this.timer.unref();
  }

  private async tick(): Promise<void> {
    try {
      await this.buffer.flush(this.write);
    } catch (err) {
      this.failures.background(err, 'Writing page views', PageViews.name);
    }
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    try {
      await this.buffer.drain(this.write);
    } catch (err) {
      this.failures.background(err, 'Writing page views at shutdown', PageViews.name);
    }
  }

  /** Counts one view of a page now (a bot's apart). */
  count(pageId: string, bot: boolean, now = Date.now()): void {
    if (!this.enabled) return;
    const key = `${pageId}|${Math.floor(now / HOUR_MS)}|${bot ? 'b' : 'v'}`;
    // A full buffer takes no new key, but a view of a page already waiting still counts.
    if (this.buffer.size < PAGE_VIEWS_MAX_KEYS || this.buffer.isPending(key)) this.buffer.add(key);
  }

  /**
   * Writes everything counted so far, after a flush that is under way (which writes only what was
   * counted when it began); tests call it to see their views at once.
   */
  async flush(): Promise<void> {
    await this.buffer.drain(this.write);
  }

  private readonly write = async (batchId: string, counts: ReadonlyMap<string, number>) => {
    const rows = new Map<string, { page: string; hour: number; views: number; bots: number }>();
    for (const [key, n] of counts) {
      const [page, hour, kind] = key.split('|');
      const id = `${page}|${hour}`;
      let r = rows.get(id);
      if (!r) rows.set(id, (r = { page, hour: Number(hour), views: 0, bots: 0 }));
      if (kind === 'b') r.bots += n;
      else r.views += n;
    }
    const engine = engineOf(this.ds);
    await applyOnce(this.ds, batchId, async (runner: QueryRunner) => {
      const pages = [...new Set([...rows.values()].map((r) => r.page))];
      const live = new Set<string>();
      for (let i = 0; i < pages.length; i += ROWS_PER_STATEMENT) {
        const part = pages.slice(i, i + ROWS_PER_STATEMENT);
        const found = (await runner.query(
          dialectSql(engine, `SELECT id FROM pages WHERE id IN (${placeholders(part.length)})`),
          part,
        )) as Array<{ id: string }>;
        for (const f of found) live.add(f.id);
      }
      const kept = [...rows.values()].filter((r) => live.has(r.page));
      for (let i = 0; i < kept.length; i += ROWS_PER_STATEMENT) {
        const part = kept.slice(i, i + ROWS_PER_STATEMENT);
        await runner.query(
          dialectSql(
            engine,
            upsertAdding(
              engine,
              'page_views',
              ['page_id', 'hour_no', 'views', 'bots'],
              ['page_id', 'hour_no'],
              ['views', 'bots'],
              part.length,
            ),
          ),
          part.flatMap((r) => [r.page, r.hour, r.views, r.bots]),
        );
      }
    });
  };

  /** Removes the views of hours before `keepFromMs` (STATS_RETENTION_DAYS, as a short's buckets). */
  async prune(keepFromMs: number): Promise<void> {
    await this.ds.query(dialectSql(engineOf(this.ds), 'DELETE FROM page_views WHERE hour_no < ?'), [
      Math.floor(keepFromMs / HOUR_MS),
    ]);
  }

  /**
   * A page's views in the shape of a short's statistics (CONTRACT "Statistics"): views as
   * `visits`, bots apart; unique visitors and the top lists are not kept for pages (zeros, empty).
   */
  async statistics(pageId: string, q: StatisticsQuery, now = Date.now()): Promise<StatisticsDto> {
    const { range: r, errors } = checkStatisticsQuery(q, now);
    if (errors) throw new ValidationFailedError(errors);
    const starts = bucketStarts(r.fromMs, r.toMs, r.granularity, r.tz);
    const first = starts[0] ?? r.fromMs;
    const found = (await this.ds.query(
      dialectSql(
        engineOf(this.ds),
        'SELECT hour_no, views, bots FROM page_views WHERE page_id = ? AND hour_no >= ? AND hour_no < ? ORDER BY hour_no',
      ),
      [pageId, Math.floor(first / HOUR_MS), Math.ceil(r.toMs / HOUR_MS)],
    )) as Array<{ hour_no: number | string; views: number | string; bots: number | string }>;
    // sums[3 * bucket + c]: visits (views), visitors (not kept: 0), bots of each bucket.
    const sums = new Float64Array(3 * starts.length);
    let bucket = 0;
    for (const row of found) {
      if (!starts.length) break;
      const ms = Number(row.hour_no) * HOUR_MS;
      while (bucket + 1 < starts.length && starts[bucket + 1] <= ms) bucket++;
      sums[3 * bucket] += Number(row.views);
      sums[3 * bucket + 2] += Number(row.bots);
    }
    return statisticsAnswer(r, starts, sums);
  }
}
