import { Inject, Injectable, Optional } from '@nestjs/common';
import { JobLockService } from './job-lock.service';

/**
 * Where runs are counted (`url_shorter_job_runs_total`): the metrics module provides its
 * MetricsService under JOB_METRICS. The database layer names what it needs; the layers above
 * provide it.
 */
export interface JobMetrics {
  readonly jobRuns: { inc(labels: { job: string }): void };
}
export const JOB_METRICS = Symbol('JOB_METRICS');

/** Where a failed run is reported: the failure module provides its FailureReporter as JOB_FAILURES. */
export interface JobFailures {
  background(err: unknown, what: string, logger: string): unknown;
}
export const JOB_FAILURES = Symbol('JOB_FAILURES');

/**
 * Provided (as `true`) by a process that must run no scheduled job: the operator's CLI (src/cli)
 * shares the server's modules, whose timers then find every job off; so the CLI never takes a
 * job's lease (which would keep the servers from running it for an interval).
 */
export const JOBS_OFF = Symbol('JOBS_OFF');

/** A scheduled job that one instance runs per interval (docs/architecture.md, "Jobs"). */
export interface LeasedJob {
  /** The lease's name in `job_locks`, and the `job` of `url_shorter_job_runs_total`. */
  name: string;
  /**
   * The job's interval, and how long a run holds the lease: the lease is not released when a run
   * ends, so the other instances' timers in the same interval find it taken; the holder renews it
   * at its next run, and the lease of a vanished holder lapses after one interval.
   */
  everyMs: number;
  /** What failed, in the failure's log line and report ("Cleanup failed: …"). */
  what: string;
  /** The logger of that line. */
  logger: string;
}

/** The skeleton of every leased job: take the lease, count the run, run, report a failure. */
@Injectable()
export class LeasedJobs {
  constructor(
    private readonly locks: JobLockService,
    @Inject(JOB_METRICS) private readonly metrics: JobMetrics,
    @Inject(JOB_FAILURES) private readonly failures: JobFailures,
    @Optional() @Inject(JOBS_OFF) private readonly off: boolean = false,
  ) {}

  /**
   * Runs `work` under the job's lease, or answers null when another instance holds it. A run is
   * counted; one that fails releases the lease (another instance may retry) and throws.
   */
  async run<T>(job: LeasedJob, work: () => Promise<T>): Promise<{ value: T } | null> {
    if (!(await this.locks.tryAcquire(job.name, job.everyMs))) return null;
    this.metrics.jobRuns.inc({ job: job.name });
    try {
      return { value: await work() };
    } catch (err) {
      await this.locks.release(job.name).catch(() => undefined);
      throw err;
    }
  }

  /**
   * A timer's run: `run`, with a failure (of the lease too) reported through JOB_FAILURES'
   * `background` (FailureReporter's) instead of thrown. Answers whether this instance ran the job.
   */
  async scheduled(job: LeasedJob, work: () => Promise<unknown>): Promise<boolean> {
    if (this.off) return false;
    try {
      return (await this.run(job, work)) !== null;
    } catch (err) {
      this.failures.background(err, job.what, job.logger);
      return false;
    }
  }
}
