import { Inject, Injectable, Logger } from '@nestjs/common';
import { Interval } from '@nestjs/schedule';
import { DataSource } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../config/config';
import { dialectSql, engineOf } from '../database/dialect';
import { JobLockService } from '../database/job-lock.service';
import { FailureReporter } from '../failure/failure-reporter';
import { MetricsService } from '../metrics/metrics.service';
import { StatisticsRecorder } from './recorder';
import { DAY_MS, HOUR_MS } from './traits';

const JOB = 'statistics-retention';
const EVERY_MS = 60 * 60 * 1000;
/** Held for the whole interval: one run per interval across all instances. */
const LEASE_MS = EVERY_MS;

/**
 * The statistics part of the scheduled cleanup, hourly and on one instance at a time (a database
 * lease held for the interval): buckets older than STATS_RETENTION_DAYS, and salts and visitor hashes older than 48 h.
 */
@Injectable()
export class StatisticsRetention {
  private readonly logger = new Logger(StatisticsRetention.name);

  constructor(
    private readonly ds: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly locks: JobLockService,
    private readonly recorder: StatisticsRecorder,
    private readonly failures: FailureReporter,
    private readonly metrics: MetricsService,
  ) {}

  @Interval(JOB, EVERY_MS)
  async scheduled(): Promise<void> {
    try {
      await this.run();
    } catch (err) {
      this.failures.background(err, 'Statistics retention', StatisticsRetention.name);
    }
  }

  /** Returns false when another instance holds the job. */
  async run(now = Date.now()): Promise<boolean> {
    if (!(await this.locks.tryAcquire(JOB, LEASE_MS))) return false;
    this.metrics.jobRuns.inc({ job: JOB });
    try {
      const q = (sql: string, params: unknown[]) =>
        this.ds.query(dialectSql(engineOf(this.ds), sql), params);
      const keepFrom = now - this.config.stats.retentionDays * DAY_MS;
      await q('DELETE FROM stats_hourly WHERE hour_no < ?', [Math.floor(keepFrom / HOUR_MS)]);
      await q('DELETE FROM stats_values WHERE day_no < ?', [Math.floor(keepFrom / DAY_MS)]);
      // A day's salt and hashes live until 48 h after the day began: today's and yesterday's stay.
      const saltDay = Math.floor((now - 48 * HOUR_MS) / DAY_MS) + 1;
      await q('DELETE FROM stats_visitors WHERE day_no < ?', [saltDay]);
      await q('DELETE FROM stats_salts WHERE day_no < ?', [saltDay]);
      this.recorder.forgetSaltsBefore(saltDay);
      this.logger.debug('Statistics retention done');
      return true;
    } catch (err) {
      await this.locks.release(JOB).catch(() => undefined); // another instance may retry
      throw err;
    }
  }
}
