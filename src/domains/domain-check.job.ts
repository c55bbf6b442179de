import { Injectable } from '@nestjs/common';
import { Interval } from '@nestjs/schedule';
import { type LeasedJob, LeasedJobs } from '../database/leased-jobs';
import { DomainService } from './domain.service';

const JOB: LeasedJob = {
  name: 'recheck-domains',
  everyMs: 24 * 60 * 60 * 1000,
  what: 'Domain re-check',
  logger: 'DomainCheckJob',
};
const CLAIMS_JOB: LeasedJob = {
  name: 'expire-domain-claims',
  everyMs: 60 * 60 * 1000,
  what: 'Expiring domain claims',
  logger: 'DomainCheckJob',
};
/** A verified domain whose record has been missing this long is disabled. */
export const DISABLE_AFTER_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * Re-checks the TXT record of every verified user domain once a day (one instance per day under
 * the job's lease); a domain that has failed for 7 days is disabled. Every hour (one instance),
 * pending claims older than 7 days are removed (CONTRACT "Hardening": claims do not block).
 */
@Injectable()
export class DomainCheckJob {
  constructor(
    private readonly domains: DomainService,
    private readonly jobs: LeasedJobs,
  ) {}

  @Interval(JOB.name, JOB.everyMs)
  async scheduled(): Promise<void> {
    await this.jobs.scheduled(JOB, () => this.recheck(new Date()));
  }

  @Interval(CLAIMS_JOB.name, CLAIMS_JOB.everyMs)
  async scheduledClaims(): Promise<void> {
    await this.jobs.scheduled(CLAIMS_JOB, () => this.domains.expireClaims(new Date()));
  }

  /** Returns how many domains failed their check, or null when another instance holds the job. */
  async run(now = new Date()): Promise<number | null> {
    return (await this.jobs.run(JOB, () => this.recheck(now)))?.value ?? null;
  }

  /** Returns how many expired claims were removed, or null when another instance holds the job. */
  async runClaims(now = new Date()): Promise<number | null> {
    return (await this.jobs.run(CLAIMS_JOB, () => this.domains.expireClaims(now)))?.value ?? null;
  }

  private async recheck(now: Date): Promise<number> {
    let failed = 0;
    for (const d of await this.domains.verifiedUserDomains()) {
      if (!(await this.domains.check(d, now, { disableAfterMs: DISABLE_AFTER_MS }))) failed++;
    }
    return failed;
  }
}
