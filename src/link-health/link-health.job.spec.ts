import { describe, expect, it, vi } from 'vitest';
import type { AppConfig } from '../config/config';
import type { LeasedJobs } from '../database/leased-jobs';
import { LeasedJobs as RealLeasedJobs } from '../database/leased-jobs';
import type { JobLockService } from '../database/job-lock.service';
import type { FailureReporter } from '../failure/failure-reporter';
import type { MetricsService } from '../metrics/metrics.service';
import { UNCHECKED } from '../shorts/short-health';
import { type CheckOutcome, nextHealth } from './link-health';
import { LINK_HEALTH_JOB, LinkHealthJob, SWEEP_CONCURRENCY } from './link-health.job';
import type { LinkHealthService, LinkProbe } from './link-health.service';
import type { HealthRow, HealthStore } from '../shorts/health-store';

const row = (i: number, url = `https://t${i}.example/`): HealthRow => ({
  id: `id-${String(i).padStart(5, '0')}`,
  url,
  ...UNCHECKED,
});

/** A repository of `rows` in memory (the due query by keyset), a probe, the real LeasedJobs. */
function setup(rows: HealthRow[], opts: { probe?: (url: string) => Promise<CheckOutcome> } = {}) {
  const pages: number[] = [];
  const shorts = {
    countOwned: vi.fn(async () => rows.length),
    healthDue: vi.fn(
      async (
        which: { never: true } | { before: Date },
        _now: Date,
        after: string | null,
        limit: number,
      ) => {
        const due = rows
          .filter((r) =>
            'never' in which ? r.healthCheckedAt === null : r.healthCheckedAt! < which.before,
          )
          .filter((r) => after === null || r.id > after)
          .slice(0, limit);
        pages.push(due.length);
        return due.map((r) => ({ ...r }));
      },
    ),
  };
  let active = 0;
  let maxActive = 0;
  const probe = {
    probe: vi.fn(
      opts.probe ??
        (async (): Promise<CheckOutcome> => {
          active++;
          maxActive = Math.max(maxActive, active);
          await new Promise((r) => setTimeout(r, 2));
          active--;
          return { kind: 'answered', status: 404 };
        }),
    ),
  };
  const health = {
    check: vi.fn(
      async (r: HealthRow, _trigger: string, probed: (url: string) => Promise<CheckOutcome>) => {
        const next = nextHealth(r, await probed(r.url), new Date());
        Object.assign(
          rows.find((x) => x.id === r.id)!,
          next,
        );
        return { ...r, ...next };
      },
    ),
  };
  const locks = { tryAcquire: vi.fn(async () => true), release: vi.fn(async () => undefined) };
  const failures = { background: vi.fn() };
  const jobs = new RealLeasedJobs(
    locks as unknown as JobLockService,
    { jobRuns: { inc: vi.fn() } } as unknown as MetricsService,
    failures as unknown as FailureReporter,
  );
  const job = new LinkHealthJob(
    shorts as unknown as HealthStore,
    health as unknown as LinkHealthService,
    probe as unknown as LinkProbe,
    jobs as LeasedJobs,
    { health: { job: true, timeoutMs: 5000 } } as AppConfig,
  );
  return { job, shorts, probe, health, locks, failures, pages, maxActive: () => maxActive };
}

describe('LinkHealthJob', () => {
  it('pages through the due shorts 100 at a time, at most SWEEP_CONCURRENCY checks at once', async () => {
    const rows = Array.from({ length: 250 }, (_, i) => row(i));
    const s = setup(rows);
    expect(await s.job.run(new Date(), { budget: 1000 })).toEqual({ checked: 250, broken: 0 });
    expect(s.pages.slice(0, 3)).toEqual([100, 100, 50]);
    expect(s.maxActive()).toBe(SWEEP_CONCURRENCY);
    expect(rows.every((r) => r.healthFailures === 1)).toBe(true);
  });

  it("takes the day's share of the logged-in shorts per sweep by default (spread over the day)", async () => {
    const rows = Array.from({ length: 2000 }, (_, i) => row(i));
    const s = setup(rows);
    // 2000 shorts, 144 sweeps a day, 1.5 ×: 21 per sweep (at least 20).
    const sweeps = (24 * 60 * 60 * 1000) / LINK_HEALTH_JOB.everyMs;
    const expected = Math.ceil((2000 / sweeps) * 1.5);
    expect((await s.job.run(new Date()))?.checked).toBe(expected);
    expect((await s.job.run(new Date()))?.checked).toBe(expected);
  });

  it('asks once per target URL within a page', async () => {
    const rows = Array.from({ length: 10 }, (_, i) => row(i, 'https://same.example/'));
    const s = setup(rows);
    expect(await s.job.run(new Date(), { budget: 100 })).toEqual({ checked: 10, broken: 0 });
    expect(s.probe.probe).toHaveBeenCalledTimes(1);
  });

  it('checks what was last checked a day ago, not what was checked since', async () => {
    const now = Date.now();
    const rows = [
      { ...row(1), healthState: 'ok' as const, healthCheckedAt: new Date(now - 25 * 3600_000) },
      { ...row(2), healthState: 'ok' as const, healthCheckedAt: new Date(now - 3600_000) },
      row(3),
    ];
    const s = setup(rows);
    expect(await s.job.run(new Date(now), { budget: 100 })).toEqual({ checked: 2, broken: 0 });
    expect(s.health.check.mock.calls.map(([r]) => r.id)).toEqual(['id-00003', 'id-00001']);
  });

  it('a database outage fails the sweep: reported once in the background, the lease released, no throw', async () => {
    const s = setup([row(1)]);
    const down = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    s.shorts.countOwned.mockRejectedValueOnce(down);
    await expect(s.job.scheduled()).resolves.toBeUndefined();
    expect(s.failures.background).toHaveBeenCalledTimes(1);
    expect(s.failures.background).toHaveBeenCalledWith(down, 'Link-health sweep', 'LinkHealthJob');
    expect(s.locks.release).toHaveBeenCalledWith('link-health');
    // The next sweep goes on.
    await s.job.scheduled();
    expect(s.health.check).toHaveBeenCalledTimes(1);
  });

  it('a failed write stops the other workers from starting more checks', async () => {
    const rows = Array.from({ length: 50 }, (_, i) => row(i));
    const s = setup(rows);
    s.health.check.mockRejectedValueOnce(new Error('ECONNRESET'));
    await expect(s.job.run(new Date(), { budget: 100 })).rejects.toThrow('ECONNRESET');
    expect(s.health.check.mock.calls.length).toBeLessThanOrEqual(SWEEP_CONCURRENCY * 2);
  });

  it('does nothing when HEALTH_CHECK is off, and starts no check after shutdown began', async () => {
    const s = setup([row(1)]);
    (s.job as unknown as { config: AppConfig }).config = {
      health: { job: false, timeoutMs: 5000 },
    } as AppConfig;
    await s.job.scheduled();
    expect(s.locks.tryAcquire).not.toHaveBeenCalled();
    const t = setup([row(1)]);
    await t.job.beforeApplicationShutdown();
    expect(await t.job.run(new Date(), { budget: 10 })).toEqual({ checked: 0, broken: 0 });
  });
});
