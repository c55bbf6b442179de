import { Injectable } from '@nestjs/common';
import { Interval } from '@nestjs/schedule';
import { JobLockService } from '../database/job-lock.service';
import { FailureReporter } from '../failure/failure-reporter';
import { MetricsService } from '../metrics/metrics.service';
import { DomainService } from './domain.service';

const JOB = 'recheck-domains';
const EVERY_MS = 24 * 60 * 60 * 1000;
/** A verified domain whose record has been missing this long is disabled. */
export const DISABLE_AFTER_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * Re-checks the TXT record of every verified user domain once a day (one instance per day under
 * a database lease held for the interval); a domain that has failed for 7 days is disabled.
 */
@Injectable()
export class DomainCheckJob {
  constructor(
    private readonly domains: DomainService,
    private readonly locks: JobLockService,
    private readonly failures: FailureReporter,
    private readonly metrics: MetricsService,
  ) {}

  @Interval(JOB, EVERY_MS)
  async scheduled(): Promise<void> {
    try {
      await this.run();
    } catch (err) {
      this.failures.background(err, 'Domain re-check', DomainCheckJob.name);
    }
  }

  /** Returns how many domains failed their check, or null when another instance holds the job. */
  async run(now = new Date()): Promise<number | null> {
    if (!(await this.locks.tryAcquire(JOB, EVERY_MS))) return null;
    this.metrics.jobRuns.inc({ job: JOB });
    try {
      let failed = 0;
      for (const d of await this.domains.verifiedUserDomains()) {
        if (!(await this.domains.check(d, now, { disableAfterMs: DISABLE_AFTER_MS }))) failed++;
      }
      return failed;
    } catch (err) {
      await this.locks.release(JOB).catch(() => undefined);
      throw err;
    }
  }
}
