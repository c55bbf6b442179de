import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationShutdown,
  type OnModuleInit,
  Optional,
} from '@nestjs/common';
import { Interval } from '@nestjs/schedule';
import { InjectRepository } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { Brackets, type Repository } from 'typeorm';
import {
  JOB_FAILURES,
  type JobFailures,
  JOBS_OFF,
  type LeasedJob,
  LeasedJobs,
} from '../database/leased-jobs';
import type { AddressPolicy } from '../metadata/address-policy';
import { type Resolver, SafeFetchError, safePost } from '../metadata/safe-fetch';
import { DELIVERY_RETENTION_MS, DISABLE_AFTER_MS, RETRY_DELAYS_MS } from './webhook-events';
import { WebhookDeliveryEntity, WebhookEntity } from './webhook.entity';
import { WebhookService } from './webhook.service';

export const WEBHOOK_OPTIONS = Symbol('WEBHOOK_OPTIONS');
export const WEBHOOK_ADDRESS_POLICY = Symbol('WEBHOOK_ADDRESS_POLICY');
export const WEBHOOK_RESOLVER = Symbol('WEBHOOK_RESOLVER');

export interface WebhookOptions {
  /** A delivery's answer must come within this (10 s; tests set a short one). */
  timeoutMs: number;
  /** How often each instance looks for due deliveries (5 s: after a restart within 30 s). */
  pollMs: number;
}
export const DEFAULT_WEBHOOK_OPTIONS: WebhookOptions = { timeoutMs: 10_000, pollMs: 5_000 };

export const WEBHOOK_USER_AGENT = 'url-shorter-webhooks/1.0';
/**
 * A delivery's lease: its timeout and this. The lease of an instance that stopped mid-delivery
 * lapses within 20 s, so after a restart every pending event goes out within 30 s (with pollMs).
 */
const LEASE_MARGIN_MS = 10_000;
/** Deliveries claimed per round at most (sent in parallel). */
const BATCH = 50;
/** Claims, and sends begun, between two turns of the event loop. */
const TURN_EVERY = 10;
const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));
/** Why the server disabled a webhook. */
export const DISABLED_REASON = 'Deliveries failed for 3 days';

const CLEANUP_JOB: LeasedJob = {
  name: 'webhook-deliveries-cleanup',
  everyMs: 60 * 60 * 1000,
  what: 'Removing old webhook deliveries',
  logger: 'WebhookDeliveryJob',
};

/**
 * Sends the outbox (`webhook_deliveries`): every instance looks for due rows every `pollMs` (and at
 * once after an emit of its own), claims each with a lease (a conditional UPDATE: one instance
 * wins a row) and POSTs it through the SSRF-safe fetcher, signed with the Standard Webhooks
 * library. A 2xx within `timeoutMs` delivers it; else it is retried after RETRY_DELAYS_MS, then
 * failed; a webhook whose deliveries have failed for 3 days is disabled. The secret is never
 * logged. Deliveries older than 7 days are removed hourly (one instance).
 */
@Injectable()
export class WebhookDeliveryJob implements OnModuleInit, OnApplicationShutdown {
  readonly holder = randomUUID();
  private readonly logger = new Logger(WebhookDeliveryJob.name);
  private timer?: NodeJS.Timeout;
  private running: Promise<number> | null = null;
  private again = false;
  private stopped = false;

  constructor(
    @InjectRepository(WebhookDeliveryEntity)
    private readonly deliveries: Repository<WebhookDeliveryEntity>,
    @InjectRepository(WebhookEntity) private readonly webhooks: Repository<WebhookEntity>,
    private readonly service: WebhookService,
    private readonly jobs: LeasedJobs,
    @Inject(WEBHOOK_OPTIONS) private readonly options: WebhookOptions,
    @Inject(WEBHOOK_ADDRESS_POLICY) private readonly policy: AddressPolicy,
    @Inject(WEBHOOK_RESOLVER) private readonly resolver: Resolver,
    @Inject(JOB_FAILURES) private readonly failures: JobFailures,
    @Optional() @Inject(JOBS_OFF) private readonly off: boolean = false,
  ) {}

  onModuleInit(): void {
    if (this.off) return;
    this.service.useWakeUp(() => this.wake());
    // Only while webhooks exist (known at boot, on every change, and every minute).
    this.timer = setInterval(() => {
      if (this.service.anyWebhooks) this.wake();
    }, this.options.pollMs);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.running?.catch(() => undefined);
  }

  /** Looks for due deliveries now (after the round that is running, if any). */
  wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.run().finally(() => {
      this.running = null;
      if (this.again && !this.stopped) {
        this.again = false;
        this.wake();
      }
    });
    this.running.catch((err: unknown) =>
      this.failures.background(err, 'Delivering webhooks', WebhookDeliveryJob.name),
    );
  }

  /** Waits for the round that is running (tests). */
  async idle(): Promise<void> {
    while (this.running) await this.running.catch(() => undefined);
  }

  /**
   * One round at `now`: claims the due deliveries (a batch at a time) and sends them; answers how
   * many were attempted. Tests call it with a later `now` to reach retries without waiting.
   */
  async run(now = new Date()): Promise<number> {
    // Events a stopped process held and never released are decided first (they may become due).
    await this.service.recoverHeld(now);
    let total = 0;
    for (;;) {
      const ids = await this.dueIds(now);
      // The event loop gets a turn every few claims and sends: on SQLite the driver answers at
      // once, so a batch's 50 claims and the reads and signing before each send ran as one task
      // (about 20 ms of a busy machine's event loop, held from every follow).
      const claimed: string[] = [];
      for (const [i, id] of ids.entries()) {
        if (await this.claim(id, now, false)) claimed.push(id);
        if ((i + 1) % TURN_EVERY === 0) await yieldToLoop();
      }
      const sends: Array<Promise<void>> = [];
      for (const [i, id] of claimed.entries()) {
        const send = this.attempt(id, now);
        send.catch(() => undefined); // a failure is Promise.all's below, not an unhandled one
        sends.push(send);
        if ((i + 1) % TURN_EVERY === 0) await yieldToLoop();
      }
      await Promise.all(sends);
      total += claimed.length;
      if (ids.length < BATCH || this.stopped) return total;
    }
  }

  /**
   * Sends a delivery again now, whatever its status (a retry by hand): the same `webhook-id`, the
   * attempt counted. Answers false when another instance is sending it at this moment.
   */
  async retryNow(id: string, now = new Date()): Promise<boolean> {
    if (!(await this.claim(id, now, true))) return false;
    await this.attempt(id, now, true);
    return true;
  }

  private async dueIds(now: Date): Promise<string[]> {
    const rows = await this.deliveries
      .createQueryBuilder('d')
      .select('d.id', 'id')
      .where("d.status = 'pending'")
      .andWhere('d.next_attempt_at <= :now', { now })
      .andWhere(
        new Brackets((b) =>
          b.where('d.lease_until IS NULL').orWhere('d.lease_until < :now', { now }),
        ),
      )
      .orderBy('d.next_attempt_at', 'ASC')
      .limit(BATCH)
      .getRawMany<{ id: string }>();
    return rows.map((r) => r.id);
  }

  /** Takes a delivery's lease (one instance wins); `any` also takes one that is not due. */
  private async claim(id: string, now: Date, any: boolean): Promise<boolean> {
    const until = new Date(now.getTime() + this.options.timeoutMs + LEASE_MARGIN_MS);
    const q = this.deliveries
      .createQueryBuilder()
      .update(WebhookDeliveryEntity)
      .set({ leaseHolder: this.holder, leaseUntil: until })
      .where('id = :id', { id })
      .andWhere(
        new Brackets((b) => b.where('lease_until IS NULL').orWhere('lease_until < :now', { now })),
      );
    if (!any) q.andWhere("status = 'pending'");
    const res = await q.execute();
    return (res.affected ?? 0) === 1;
  }

  /** Sends a claimed delivery and records the outcome (releasing the lease). */
  private async attempt(id: string, now: Date, byHand = false): Promise<void> {
    const d = await this.deliveries.findOne({ where: { id } });
    if (!d || d.leaseHolder !== this.holder) return;
    const w = await this.webhooks.findOne({ where: { id: d.webhookId } });
    if (!w) return;
    const attempts = d.attempts + 1;
    if (!w.enabled && !byHand && d.type !== 'webhook.test') {
      await this.finish(d, { status: 'failed', lastError: 'Webhook disabled' });
      return;
    }
    const started = Date.now();
    let status: number | null = null;
    let error: string | null = null;
    try {
      const signed = new Date();
      const signature = new Webhook(this.service.secretOf(w)).sign(d.eventId, signed, d.payload);
      const res = await safePost(
        w.url,
        d.payload,
        {
          'Content-Type': 'application/json',
          'webhook-id': d.eventId,
          'webhook-timestamp': String(Math.floor(signed.getTime() / 1000)),
          'webhook-signature': signature,
        },
        this.policy,
        this.resolver,
        { timeoutMs: this.options.timeoutMs, userAgent: WEBHOOK_USER_AGENT },
      );
      status = res.status;
      if (status < 200 || status > 299) error = `HTTP ${status}`;
    } catch (err) {
      error = err instanceof SafeFetchError ? err.reason : 'network';
    }
    const durationMs = Date.now() - started;
    const at = new Date(Math.max(now.getTime(), Date.now()));
    if (error === null) {
      await this.finish(d, {
        status: 'delivered',
        attempts,
        lastStatusCode: status,
        lastError: null,
        durationMs,
        deliveredAt: at,
      });
      if (w.failingSince) {
        await this.webhooks.update({ id: w.id }, { failingSince: null });
      }
      return;
    }
    const delay = RETRY_DELAYS_MS[attempts - 1];
    const again = delay !== undefined && (d.status === 'pending' || !byHand);
    await this.finish(d, {
      status: again ? 'pending' : 'failed',
      attempts,
      lastStatusCode: status,
      lastError: error,
      durationMs,
      ...(again ? { nextAttemptAt: new Date(now.getTime() + delay) } : {}),
    });
    await this.failing(w, now);
  }

  /** A failed attempt: the webhook's failure streak starts or goes on; 3 days of it disable it. */
  private async failing(w: WebhookEntity, now: Date): Promise<void> {
    if (!w.failingSince) {
      await this.webhooks.update({ id: w.id }, { failingSince: now });
      return;
    }
    if (w.enabled && now.getTime() - w.failingSince.getTime() >= DISABLE_AFTER_MS) {
      await this.webhooks.update({ id: w.id }, { enabled: false, disabledReason: DISABLED_REASON });
      this.service.changed(w);
      this.logger.warn(`Webhook ${w.id} disabled: ${DISABLED_REASON}`);
    }
  }

  private async finish(
    d: WebhookDeliveryEntity,
    changes: Partial<WebhookDeliveryEntity>,
  ): Promise<void> {
    await this.deliveries.update(
      { id: d.id, leaseHolder: this.holder },
      { ...changes, leaseHolder: null, leaseUntil: null },
    );
  }

  @Interval(CLEANUP_JOB.name, CLEANUP_JOB.everyMs)
  async scheduledCleanup(): Promise<void> {
    await this.jobs.scheduled(CLEANUP_JOB, () => this.cleanup(new Date()));
  }

  /**
   * Removes deliveries older than 7 days (answers how many), and the own webhooks of deleted users.
   */
  async cleanup(now = new Date()): Promise<number> {
    await this.webhooks
      .createQueryBuilder()
      .delete()
      .from(WebhookEntity)
      .where('owner_id IS NULL AND team_id IS NULL')
      .execute();
    const res = await this.deliveries
      .createQueryBuilder()
      .delete()
      .from(WebhookDeliveryEntity)
      .where('created_at < :cutoff', { cutoff: new Date(now.getTime() - DELIVERY_RETENTION_MS) })
      .execute();
    return res.affected ?? 0;
  }
}
