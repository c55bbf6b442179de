import {
  Inject,
  Injectable,
  Logger,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { Interval } from '@nestjs/schedule';
import { APP_CONFIG, type AppConfig } from '../config/config';
import { type LeasedJob, LeasedJobs } from '../database/leased-jobs';
import type { CheckOutcome } from './link-health';
import { LinkHealthService, LinkProbe } from './link-health.service';
import { HealthStore, type HealthRow } from '../shorts/health-store';

const DAY_MS = 24 * 60 * 60 * 1000;

/** One sweep every 10 minutes across all instances (the lease is held for the interval). */
export const LINK_HEALTH_JOB: LeasedJob = {
  name: 'link-health',
  everyMs: 10 * 60 * 1000,
  what: 'Link-health sweep',
  logger: 'LinkHealthJob',
};
/** The first sweep comes this soon after boot, so instances restarted often still sweep. */
export const FIRST_SWEEP_DELAY_MS = 60_000;
/** A short is checked again this long after its last check. */
export const RECHECK_AFTER_MS = DAY_MS;
/** Checks under way at once, per sweep. */
export const SWEEP_CONCURRENCY = 4;
/** Shorts read per page. */
const PAGE_SIZE = 100;
/**
 * A sweep checks the day's share of the logged-in shorts (their number / sweeps per day) times this,
 * so a backlog (the first day after an upgrade, many new shorts) drains within the day, spread.
 */
const BUDGET_FACTOR = 1.5;
/** And at least this many, so a small instance's new shorts get their first check soon. */
const MIN_BUDGET = 20;
/** A sweep stops starting checks at this share of its interval (the lease's end). */
const DEADLINE_SHARE = 0.8;

export interface SweepOptions {
  /** Shorts checked at most; default: the day's share (see BUDGET_FACTOR). */
  budget?: number;
}

/**
 * The link-health job (HEALTH_CHECK): every 10 minutes one instance (under the job's lease) checks
 * the logged-in shorts that are due: never checked, or last checked a day ago. Each sweep takes
 * the day's share of them, so the checks spread over the day; it reads them in pages of 100 (id
 * order, keyset) and checks SWEEP_CONCURRENCY at a time, one probe per target URL of a page; it
 * stops starting checks at 80 % of its interval or at shutdown. A failed sweep (a database
 * outage) is reported by LeasedJobs (the outage log: one line per interval) and releases the
 * lease; the next sweep goes on where the due shorts are.
 */
@Injectable()
export class LinkHealthJob implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(LinkHealthJob.name);
  private firstSweepTimer?: NodeJS.Timeout;
  private stopping = false;
  private running: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly shorts: HealthStore,
    private readonly health: LinkHealthService,
    private readonly probe: LinkProbe,
    private readonly jobs: LeasedJobs,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.config.health.job) return;
    this.firstSweepTimer = setTimeout(() => void this.scheduled(), FIRST_SWEEP_DELAY_MS);
    this.firstSweepTimer.unref();
  }

  /** Lets a sweep under way finish the checks it started (each bounded by its timeout). */
  async beforeApplicationShutdown(): Promise<void> {
    this.stopping = true;
    clearTimeout(this.firstSweepTimer);
    await this.running.catch(() => undefined);
  }

  @Interval(LINK_HEALTH_JOB.name, LINK_HEALTH_JOB.everyMs)
  async scheduled(): Promise<void> {
    if (!this.config.health.job || this.stopping) return;
    await this.track(this.jobs.scheduled(LINK_HEALTH_JOB, () => this.sweep(new Date())));
  }

  /**
   * One sweep now (tests, and operators through code): the shorts due at `now` (that is, last
   * checked before `now` − 1 day), under the job's lease. Answers how many shorts were checked and
   * how many are broken after their check, or null when another instance holds the lease.
   */
  async run(
    now = new Date(),
    options: SweepOptions = {},
  ): Promise<{ checked: number; broken: number } | null> {
    return (
      (await this.track(this.jobs.run(LINK_HEALTH_JOB, () => this.sweep(now, options))))?.value ??
      null
    );
  }

  private track<T>(work: Promise<T>): Promise<T> {
    this.running = work.catch(() => undefined);
    return work;
  }

  private async sweep(
    now: Date,
    options: SweepOptions = {},
  ): Promise<{ checked: number; broken: number }> {
    const budget =
      options.budget ??
      Math.max(
        MIN_BUDGET,
        Math.ceil(
          ((await this.shorts.countOwned()) * LINK_HEALTH_JOB.everyMs * BUDGET_FACTOR) / DAY_MS,
        ),
      );
    const deadline = Date.now() + LINK_HEALTH_JOB.everyMs * DEADLINE_SHARE;
    const tally = { checked: 0, broken: 0 };
    const phases = [
      { never: true } as const,
      { before: new Date(now.getTime() - RECHECK_AFTER_MS) },
    ];
    for (const which of phases) {
      let afterId: string | null = null;
      for (;;) {
        const room = budget - tally.checked;
        if (room <= 0 || this.stopping || Date.now() >= deadline) break;
        const page = await this.shorts.healthDue(which, now, afterId, Math.min(PAGE_SIZE, room));
        if (page.length === 0) break;
        await this.checkPage(page, deadline, tally);
        afterId = page[page.length - 1].id;
      }
    }
    if (tally.checked > 0) {
      this.logger.debug(`Checked ${tally.checked} links, ${tally.broken} broken`);
    }
    return tally;
  }

  /** Checks a page, SWEEP_CONCURRENCY at a time; shorts with the same target share one probe. */
  private async checkPage(
    page: HealthRow[],
    deadline: number,
    tally: { checked: number; broken: number },
  ): Promise<void> {
    const probes = new Map<string, Promise<CheckOutcome>>();
    const probed = (url: string) => {
      let p = probes.get(url);
      if (!p) {
        p = this.probe.probe(url);
        probes.set(url, p);
      }
      return p;
    };
    let next = 0;
    let failed = false;
    const worker = async () => {
      while (next < page.length && !failed && !this.stopping && Date.now() < deadline) {
        const row = page[next++];
        try {
          const after = await this.health.check(row, 'sweep', probed);
          tally.checked++;
          if (after?.healthState === 'broken') tally.broken++;
        } catch (err) {
          failed = true; // the other workers start no more checks (a database outage)
          throw err;
        }
      }
    };
    await Promise.all(Array.from({ length: SWEEP_CONCURRENCY }, worker));
  }
}
