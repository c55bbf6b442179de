import { Inject, Injectable, Logger } from '@nestjs/common';
import { Interval } from '@nestjs/schedule';
import { DataSource } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../config/config';
import { dialectSql, engineOf } from '../database/dialect';
import { type LeasedJob, LeasedJobs } from '../database/leased-jobs';
import { StatisticsRecorder } from './recorder';
import { VALUE_SPAN_DAYS } from './rollups';
import { DAY_MS, HOUR_MS } from './traits';

/** One run per hour across all instances (the lease is held for the interval, see LeasedJob). */
const JOB: LeasedJob = {
  name: 'statistics-retention',
  everyMs: HOUR_MS,
  what: 'Statistics retention',
  logger: 'StatisticsRetention',
};

/**
 * Removes another module's aggregates older than `keepFromMs` (the first instant kept), in the
 * retention's run (see StatisticsRetention.alsoPrune).
 */
export type RetentionPruner = (keepFromMs: number) => Promise<void>;

/**
 * The statistics part of the scheduled cleanup, hourly and on one instance at a time (a database
 * lease held for the interval): buckets older than STATS_RETENTION_DAYS, and salts and visitor hashes older than 48 h.
 * Other counts kept like a follow's aggregates (page views) follow the same retention: their
 * module registers its pruner (alsoPrune), so this one never reads their tables.
 */
@Injectable()
export class StatisticsRetention {
  private readonly logger = new Logger(StatisticsRetention.name);
  private readonly pruners: RetentionPruner[] = [];

  constructor(
    private readonly ds: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly jobs: LeasedJobs,
    private readonly recorder: StatisticsRecorder,
  ) {}

  /** Runs `pruner` in every retention run, after the statistics' own tables. */
  alsoPrune(pruner: RetentionPruner): void {
    this.pruners.push(pruner);
  }

  @Interval(JOB.name, JOB.everyMs)
  async scheduled(): Promise<void> {
    await this.jobs.scheduled(JOB, () => this.clean(Date.now()));
  }

  /** Returns false when another instance holds the job. */
  async run(now = Date.now()): Promise<boolean> {
    return (await this.jobs.run(JOB, () => this.clean(now))) !== null;
  }

  private async clean(now: number): Promise<void> {
    const q = (sql: string, params: unknown[]) =>
      this.ds.query(dialectSql(engineOf(this.ds), sql), params);
    const keepFrom = now - this.config.stats.retentionDays * DAY_MS;
    await q('DELETE FROM stats_hourly WHERE hour_no < ?', [Math.floor(keepFrom / HOUR_MS)]);
    await q('DELETE FROM stats_values WHERE day_no < ?', [Math.floor(keepFrom / DAY_MS)]);
    // Rollups of days and spans that began before: the reads use them only from the first day
    // wholly kept (StatisticsService), so one that lost part of its rows is never read.
    await q('DELETE FROM stats_daily WHERE day_no < ?', [Math.floor(keepFrom / DAY_MS)]);
    await q('DELETE FROM stats_value_spans WHERE span_no < ?', [
      Math.floor(keepFrom / DAY_MS / VALUE_SPAN_DAYS),
    ]);
    // A day's salt and hashes live until 48 h after the day began: today's and yesterday's stay.
    const saltDay = Math.floor((now - 48 * HOUR_MS) / DAY_MS) + 1;
    await q('DELETE FROM stats_visitors WHERE day_no < ?', [saltDay]);
    await q('DELETE FROM stats_salts WHERE day_no < ?', [saltDay]);
    this.recorder.forgetSaltsBefore(saltDay);
    for (const prune of this.pruners) await prune(keepFrom);
    this.logger.debug('Statistics retention done');
  }
}
