import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { Interval } from '@nestjs/schedule';
import { APP_CONFIG, type AppConfig } from '../config/config';
import { pruneAppliedBatches } from '../database/apply-once';
import { JobLockService } from '../database/job-lock.service';
import { FailureReporter } from '../failure/failure-reporter';
import { MetricsService } from '../metrics/metrics.service';
import { ShortRepository } from './short.repository';

const JOB = 'cleanup-expired-anonymous-shorts';
const EVERY_MS = 60 * 60 * 1000;
/** The first run comes this soon after boot, so instances restarted often still clean up. */
export const FIRST_RUN_DELAY_MS = 3000;
/**
 * A run holds the job's lease for the whole interval (it is not released when the run ends), so the
 * timers of the other instances in the same interval find it taken: one run per interval across
 * all instances. The holder renews it at its next run; when the holder is gone, the lease lapses
 * after one interval and another instance takes the job over.
 */
const LEASE_MS = EVERY_MS;
/** Ids of written batches are kept this long (a batch retried later than this would count twice). */
const APPLIED_BATCH_RETENTION_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * Removes expired anonymous shorts after the retention period (and old ids of written batches):
 * shortly after boot, then every hour; one instance per hour under a database lease held for the
 * interval (released early only when a run fails, so another instance may retry).
 */
@Injectable()
export class CleanupService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(CleanupService.name);
  private firstRunTimer?: NodeJS.Timeout;
  /** Settles after the first run (tests wait for it before they measure a run of their own). */
  firstRun: Promise<void> = Promise.resolve();

  constructor(
    private readonly shorts: ShortRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly locks: JobLockService,
    private readonly failures: FailureReporter,
    private readonly metrics: MetricsService,
  ) {}

  onApplicationBootstrap(): void {
    this.firstRun = new Promise((resolve) => {
      this.firstRunTimer = setTimeout(
        () => void this.scheduled().finally(resolve),
        FIRST_RUN_DELAY_MS,
      );
      this.firstRunTimer.unref();
    });
  }

  onApplicationShutdown(): void {
    clearTimeout(this.firstRunTimer);
  }

  @Interval(JOB, EVERY_MS)
  async scheduled(): Promise<void> {
    try {
      await this.run();
    } catch (err) {
      this.failures.background(err, 'Cleanup', CleanupService.name);
    }
  }

  /** Returns the number of removed shorts, or null when another instance holds the job. */
  async run(now = new Date()): Promise<number | null> {
    if (!(await this.locks.tryAcquire(JOB, LEASE_MS))) return null;
    this.metrics.jobRuns.inc({ job: JOB });
    try {
      const cutoff = new Date(now.getTime() - this.config.anonRetentionDays * 24 * 60 * 60 * 1000);
      const removed = await this.shorts.deleteExpiredAnonymous(cutoff);
      await pruneAppliedBatches(
        this.shorts.dataSource,
        new Date(now.getTime() - APPLIED_BATCH_RETENTION_MS),
      );
      if (removed > 0) this.logger.log(`Removed ${removed} expired anonymous shorts`);
      return removed;
    } catch (err) {
      await this.locks.release(JOB).catch(() => undefined);
      throw err;
    }
  }
}
