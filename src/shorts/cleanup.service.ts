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
import { type LeasedJob, LeasedJobs } from '../database/leased-jobs';
import { ShortRepository } from './short.repository';

/** One run per hour across all instances (the lease is held for the interval, see LeasedJob). */
const JOB: LeasedJob = {
  name: 'cleanup-expired-anonymous-shorts',
  everyMs: 60 * 60 * 1000,
  what: 'Cleanup',
  logger: 'CleanupService',
};
/** The first run comes this soon after boot, so instances restarted often still clean up. */
export const FIRST_RUN_DELAY_MS = 3000;
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
    private readonly jobs: LeasedJobs,
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

  @Interval(JOB.name, JOB.everyMs)
  async scheduled(): Promise<void> {
    await this.jobs.scheduled(JOB, () => this.clean(new Date()));
  }

  /** Returns the number of removed shorts, or null when another instance holds the job. */
  async run(now = new Date()): Promise<number | null> {
    return (await this.jobs.run(JOB, () => this.clean(now)))?.value ?? null;
  }

  private async clean(now: Date): Promise<number> {
    const cutoff = new Date(now.getTime() - this.config.anonRetentionDays * 24 * 60 * 60 * 1000);
    const removed = await this.shorts.deleteExpiredAnonymous(cutoff);
    await pruneAppliedBatches(
      this.shorts.dataSource,
      new Date(now.getTime() - APPLIED_BATCH_RETENTION_MS),
    );
    if (removed > 0) this.logger.log(`Removed ${removed} expired anonymous shorts`);
    return removed;
  }
}
