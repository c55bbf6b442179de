import { describe, expect, it, vi } from 'vitest';
import type { JobLockService } from './job-lock.service';
import { type JobFailures, type JobMetrics, type LeasedJob, LeasedJobs } from './leased-jobs';

const JOB: LeasedJob = { name: 'test-job', everyMs: 60_000, what: 'Testing', logger: 'Test' };

function setup(acquire: () => Promise<boolean>, off?: boolean) {
  const locks = { tryAcquire: vi.fn(acquire), release: vi.fn(async () => undefined) };
  const metrics = { jobRuns: { inc: vi.fn() } };
  const failures = { background: vi.fn() };
  const jobs = new LeasedJobs(
    locks as unknown as JobLockService,
    metrics satisfies JobMetrics,
    failures satisfies JobFailures,
    off,
  );
  return { jobs, locks, metrics, failures };
}

describe('LeasedJobs', () => {
  it('runs under the lease, counts the run and keeps the lease for the interval', async () => {
    const { jobs, locks, metrics } = setup(async () => true);
    expect(await jobs.run(JOB, async () => 7)).toEqual({ value: 7 });
    expect(locks.tryAcquire).toHaveBeenCalledWith('test-job', 60_000);
    expect(metrics.jobRuns.inc).toHaveBeenCalledWith({ job: 'test-job' });
    expect(locks.release).not.toHaveBeenCalled();
    expect(await jobs.scheduled(JOB, async () => undefined)).toBe(true);
  });

  it('with JOBS_OFF (the CLI) a timer runs nothing and takes no lease', async () => {
    const { jobs, locks, metrics } = setup(async () => true, true);
    const work = vi.fn(async () => 1);
    expect(await jobs.scheduled(JOB, work)).toBe(false);
    expect(work).not.toHaveBeenCalled();
    expect(locks.tryAcquire).not.toHaveBeenCalled();
    expect(metrics.jobRuns.inc).not.toHaveBeenCalled();
  });

  it('does not run, count or release when another instance holds the lease', async () => {
    const { jobs, locks, metrics } = setup(async () => false);
    const work = vi.fn(async () => 1);
    expect(await jobs.run(JOB, work)).toBeNull();
    expect(await jobs.scheduled(JOB, work)).toBe(false);
    expect(work).not.toHaveBeenCalled();
    expect(metrics.jobRuns.inc).not.toHaveBeenCalled();
    expect(locks.release).not.toHaveBeenCalled();
  });

  it('a failed run releases the lease; run throws, scheduled reports it in the background', async () => {
    const { jobs, locks, failures } = setup(async () => true);
    const boom = new Error('boom');
    await expect(
      jobs.run(JOB, async () => {
        throw boom;
      }),
    ).rejects.toBe(boom);
    expect(locks.release).toHaveBeenCalledWith('test-job');
    expect(
      await jobs.scheduled(JOB, async () => {
        throw boom;
      }),
    ).toBe(false);
    expect(failures.background).toHaveBeenCalledWith(boom, 'Testing', 'Test');
  });

  it('a lease that cannot be taken (the database away) is reported too, nothing runs', async () => {
    const down = new Error('down');
    const { jobs, failures } = setup(async () => {
      throw down;
    });
    const work = vi.fn(async () => 1);
    expect(await jobs.scheduled(JOB, work)).toBe(false);
    expect(work).not.toHaveBeenCalled();
    expect(failures.background).toHaveBeenCalledWith(down, 'Testing', 'Test');
  });
});
