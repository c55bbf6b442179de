import { hash } from 'node:crypto';
import { join } from 'node:path';
import { Inject, Injectable, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { FollowInput, UseCounter } from '../follow/follow.service';
import type { TargetName } from '../shared/redirect-rules';
import { APP_CONFIG, type AppConfig } from '../config/config';
import { CacheBus } from '../common/cache-bus';
import { CountBuffer } from '../database/count-buffer';
import { engineOf } from '../database/dialect';
import { FailureReporter } from '../failure/failure-reporter';
import { MetricsService } from '../metrics/metrics.service';
import { SHORTS_DELETED_CHANNEL } from '../shorts/short-events';
import { ShortService } from '../shorts/short.service';
import { GeoLookup } from './geo';
import { keys, StatsWriter } from './stats-writer';
import { StatsWriterThread } from './stats-writer-thread';
import { countryCode, dayOfHour, hourOf, referrerHost } from './traits';

export const STATS_FLUSH_MS = 1_000;
/**
 * Aggregate keys per statistics batch at most. A batch is a few multi-row statements per table
 * (StatsWriter), so it stays a short transaction, and the use counts, whose batches take turns with
 * these, never wait behind a long one (after an outage, 5,000 keys as one statement per key were
 * one transaction of 12 s on MariaDB).
 */
const STATS_BATCH_KEYS = 2_000;
/**
 * On SQLite without a file of its own for the writer's thread (`:memory:`), a batch holds the
 * event loop while it is written (better-sqlite3 is synchronous): its
 * keys follow the time per key measured, aiming at this many milliseconds per batch, with a turn of
 * the loop between batches (CountBuffer). A follow of a short not followed in this batch costs
 * about seven keys and as many B-tree pages written at the commit.
 */
const SQLITE_BATCH_MS = 8;

/**
 * Records follows into an in-memory aggregate (a map keyed by short, hour or day, dimension and
 * value, so memory grows with distinct keys, not with traffic) and writes it about every second
 * and at shutdown, exactly once (CountBuffer + applyOnce). A failed write keeps the aggregate and
 * is retried. On the request only cheap work is done: the referrer's host, the country (header or
 * in-memory database) and an unsalted digest of the visitor; user agents are parsed in the flush.
 */
@Injectable()
export class StatisticsRecorder implements OnModuleInit, OnApplicationShutdown {
  private readonly buffer: CountBuffer;
  /** The batch writer: on a SQLite file on a thread of its own, else on this one. */
  readonly writer: Pick<StatsWriter, 'write' | 'gone' | 'forgetSaltsBefore'> & {
    close?(): Promise<void>;
  };
  private timer?: NodeJS.Timeout;
  private ticking = false;

  constructor(
    ds: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly geo: GeoLookup,
    private readonly metrics: MetricsService,
    private readonly failures: FailureReporter,
    shorts: ShortService,
    bus: CacheBus,
  ) {
    const file = (ds.options as { database?: unknown }).database;
    if (engineOf(ds) === 'sqlite' && typeof file === 'string' && file && file !== ':memory:') {
      // A SQLite file: the batches are written by a worker thread with its own connection, so
      // they do not hold this event loop (better-sqlite3 is synchronous); batches of full size.
      this.buffer = new CountBuffer(STATS_BATCH_KEYS);
      this.writer = new StatsWriterThread({
        script: join(__dirname, 'stats-writer.worker.mjs'),
        file,
        timeoutMs: config.dbTimeoutMs,
        onLost: (reason) =>
          failures.background(
            new Error(`The statistics writer's thread ${reason}`),
            'Writing statistics',
            StatisticsRecorder.name,
          ),
      });
    } else {
      this.buffer =
        engineOf(ds) === 'sqlite'
          ? new CountBuffer(STATS_BATCH_KEYS, SQLITE_BATCH_MS)
          : new CountBuffer(STATS_BATCH_KEYS);
      this.writer = new StatsWriter(
        ds,
        (ids) => shorts.existingIds(ids),
        (runner, counts) => shorts.addUses(runner, counts),
      );
    }
    bus.on(SHORTS_DELETED_CHANNEL, (ids) => this.writer.gone(ids.split(',')));
  }

  onModuleInit(): void {
    this.timer = setInterval(() => void this.tick(), STATS_FLUSH_MS);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    try {
      await this.buffer.drain(this.writer.write);
    } catch (err) {
      this.failures.background(err, 'Writing statistics at shutdown', StatisticsRecorder.name);
    }
    await this.writer.close?.();
  }

  /**
   * One follow of a short (a redirect or a bot's preview), with where a redirect went (`default`
   * or the number of the redirect rule). Never throws, never waits.
   */
  record(
    shortId: string,
    input: FollowInput,
    target: TargetName = 'default',
    now = Date.now(),
  ): void {
    if (!this.config.stats.enabled) return;
    const hour = hourOf(now);
    if (input.bot) {
      this.buffer.add(keys.hourly(shortId, hour, 'bots'));
      this.metrics.botHits.inc();
      return;
    }
    this.buffer.add(keys.hourly(shortId, hour, 'visits'));
    this.metrics.visits.inc();
    const v = input.visitor;
    if (!v) return;
    const day = dayOfHour(hour);
    this.buffer.add(keys.value(shortId, day, 'target', target));
    this.buffer.add(keys.value(shortId, day, 'referrer', referrerHost(v.referer)));
    this.buffer.add(
      keys.value(shortId, day, 'country', countryCode(v.country ?? this.geo.country(v.address))),
    );
    this.buffer.add(keys.agent(shortId, day, v.userAgent));
    // The one-shot hash: a third of createHash's cost for a short input.
    const digest = hash('sha256', `${v.address}\n${v.userAgent}\n${shortId}`, 'base64url');
    this.buffer.add(keys.visitor(shortId, hour, digest));
  }

  /**
   * Writes everything recorded so far (after a write that is already running); a failure keeps the
   * aggregate for the next flush (one log line per interval).
   */
  async flush(): Promise<void> {
    try {
      await this.buffer.drain(this.writer.write);
    } catch (err) {
      this.failures.background(err, 'Writing statistics', StatisticsRecorder.name);
    }
  }

  /** The timer's flush: skipped while one is still running (a slow or absent database). */
  private async tick(): Promise<void> {
    if (this.ticking) return;
    this.ticking = true;
    try {
      await this.flush();
    } finally {
      this.ticking = false;
    }
  }

  /** Aggregate keys not yet written (tests, diagnostics). */
  pending(): number {
    return this.buffer.size;
  }

  /**
   * The follow path's use counts, carried in this buffer (when statistics are enabled): a follow's
   * use and its aggregates are written in one batch transaction.
   */
  readonly uses: UseCounter = {
    add: (shortId) => this.buffer.add(keys.uses(shortId)),
    flush: () => this.flush(),
    pending: () => {
      let n = 0;
      for (const k of this.buffer.snapshot().keys()) if (k.startsWith('n')) n++;
      return n;
    },
  };

  /** After old salts were deleted: forget them here too. */
  forgetSaltsBefore(day: number): void {
    this.writer.forgetSaltsBefore(day);
  }
}
