import { Injectable, Optional, type Provider } from '@nestjs/common';
import { activeActor, type Actor } from '../common/actor';
import { UnauthorizedError, shortNotFound } from '../common/errors';
import { APP_CONFIG, APP_VERSION, type AppConfig } from '../config/config';
import { RateLimitService } from '../limits/rate-limit.service';
import { MetricsService } from '../metrics/metrics.service';
import { isFailureStatus } from '../shared/link-health';
import { DefaultAddressPolicy, type AddressPolicy } from '../metadata/address-policy';
import {
  SafeFetchError,
  safeProbeStatus,
  systemResolver,
  type Resolver,
} from '../metadata/safe-fetch';
import type { ShortHealthDto } from '../shorts/dto/short.dto';
import { HealthStore, type HealthRow } from '../shorts/health-store';
import { ShortChangeHub } from '../shorts/short-change-hub';
import { healthView } from '../shorts/short-health';
import { ShortAccessService } from '../shorts/short-access.service';
import { type CheckOutcome, nextHealth } from './link-health';

export const LINK_HEALTH_USER_AGENT = `URL-Shorter/${APP_VERSION} (link health)`;
/** Redirect hops a check follows; more (or a loop) is no answer. */
export const LINK_HEALTH_MAX_REDIRECTS = 5;
/** How often a check writes again when a concurrent check of the same short wrote first. */
const SAVE_ATTEMPTS = 3;

/** Asks a target for its status (one check); never throws. */
export abstract class LinkProbe {
  abstract probe(url: string): Promise<CheckOutcome>;
}

/**
 * The probe through the SSRF-safe fetcher (metadata/safe-fetch.ts), with the link preview's
 * address policy (METADATA_ALLOWED_PORTS, METADATA_ALLOW_LOOPBACK): `HEAD`, `GET` on 405,
 * HEALTH_CHECK_TIMEOUT_MS for the whole check. A target this server may not connect to is
 * `uncheckable`; every other failure to get an answer is `no_answer`.
 */
export class SafeLinkProbe extends LinkProbe {
  constructor(
    private readonly policy: AddressPolicy,
    private readonly resolver: Resolver,
    private readonly timeoutMs: number,
  ) {
    super();
  }

  async probe(url: string): Promise<CheckOutcome> {
    try {
      const { status } = await safeProbeStatus(url, this.policy, this.resolver, {
        timeoutMs: this.timeoutMs,
        maxRedirects: LINK_HEALTH_MAX_REDIRECTS,
        userAgent: LINK_HEALTH_USER_AGENT,
      });
      return { kind: 'answered', status };
    } catch (err) {
      const reason = err instanceof SafeFetchError ? err.reason : null;
      if (reason === 'address_refused' || reason === 'port_refused' || reason === 'bad_url') {
        return { kind: 'uncheckable' };
      }
      return { kind: 'no_answer' };
    }
  }
}

export const linkProbeProvider: Provider = {
  provide: LinkProbe,
  inject: [APP_CONFIG],
  useFactory: (config: AppConfig): LinkProbe =>
    new SafeLinkProbe(
      new DefaultAddressPolicy(config.metadataAllowedPorts, config.metadataAllowLoopback),
      systemResolver,
      config.health.timeoutMs,
    ),
};

/**
 * Link health (CONTRACT "Redirect rules, expiry fallback and link health"): one check of a short's
 * target and its outcome recorded by the state machine (link-health.ts); the owner's "check now".
 * The daily sweep (LinkHealthJob) checks through here too.
 */
@Injectable()
export class LinkHealthService {
  constructor(
    private readonly shorts: HealthStore,
    private readonly service: ShortAccessService,
    private readonly probe: LinkProbe,
    private readonly limits: RateLimitService,
    private readonly metrics: MetricsService,
    @Optional() private readonly changes?: ShortChangeHub,
  ) {}

  /**
   * `POST /api/code/{id}/health`: checks the short now (owner or admin; anonymous callers 401,
   * others 403, unknown 404) and answers its new health. Counts against LIMIT_HEALTH_CHECK per
   * user (admins too) before anything is fetched.
   */
  async checkNow(id: string, caller: Actor | null): Promise<ShortHealthDto> {
    const actor = activeActor(caller);
    if (!actor) throw new UnauthorizedError();
    await this.service.findOwned(id, actor);
    await this.limits.take('healthCheck', actor.id);
    const row = await this.shorts.findHealth(id);
    if (!row) throw shortNotFound();
    return healthView((await this.check(row, 'now')) ?? row);
  }

  /**
   * Checks one short's target and records the outcome; answers the health written, or null when
   * the short was deleted or got another target meanwhile (nothing written). `probed` shares one
   * probe between shorts with the same target (a sweep's page). Counted by `trigger` and outcome.
   */
  async check(
    row: HealthRow,
    trigger: 'sweep' | 'now',
    probed: (url: string) => Promise<CheckOutcome> = (url) => this.probe.probe(url),
  ): Promise<HealthRow | null> {
    const outcome = await probed(row.url);
    this.metrics.linkChecks.inc({
      trigger,
      outcome:
        outcome.kind === 'uncheckable'
          ? 'uncheckable'
          : outcome.kind === 'answered' && !isFailureStatus(outcome.status)
            ? 'ok'
            : 'failed',
    });
    let current: HealthRow | null = row;
    for (let attempt = 1; current && current.url === row.url; attempt++) {
      const next = nextHealth(current, outcome, new Date());
      if (await this.shorts.saveHealth(current.id, current.url, current.healthFailures, next)) {
        const before = current.healthState ?? 'unknown';
        if ((next.healthState ?? 'unknown') !== before) {
          await this.changes?.healthChanged(current.id, before, healthView(next));
        }
        return { ...current, ...next };
      }
      if (attempt >= SAVE_ATTEMPTS) return null;
      current = await this.shorts.findHealth(row.id);
    }
    return null;
  }
}
