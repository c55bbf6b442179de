import { hash } from 'node:crypto';
import { join } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationShutdown,
  type OnModuleInit,
} from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { FollowInput, UseCounter } from '../follow/follow.service';
import type { TargetName } from '../shared/redirect-rules';
import { APP_CONFIG, type AppConfig } from '../config/config';
import { CacheBus } from '../common/cache-bus';
import { type BatchWriter, CountBuffer } from '../database/count-buffer';
import { engineOf } from '../database/dialect';
import { FailureReporter } from '../failure/failure-reporter';
import { OUTAGE_LOG_INTERVAL_MS } from '../failure/outage-log';
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
 * Shorts moved into the buffer per slice of a flush's staging, with a turn of the event loop
 * between slices: a second of follows of many different shorts (8,000 in the bench's cache-miss
 * scenario, 150,000 keys) took up to 220 ms to stage at once.
 */
const STAGE_SLICE = 500;

/**
 * Aggregate keys waiting for the writer (a short staged since the last flush counted as
 * STAGED_KEYS) from which follows wait for it: the backlog grows when follows of different shorts
 * come faster than the writer writes them (SQLite's writer manages about 2,000-5,000 new shorts a
 * second on 2 cores) or while the database is down. About 140 bytes of heap a key (measured with
 * browsers' follows of new shorts): some 15 MB.
 */
export const STATS_BACKLOG_KEYS = 100_000;
/**
 * Beyond this multiple of the bound a follow's statistics are not kept: the writer is failing
 * (waiting would only slow every redirect) or follows waited in vain. The follow itself is answered
 * as always, and its use of an unlimited short is still counted.
 */
const BACKLOG_HARD = 1.25;
/** A follow waits this long at most for the writer's next batch when the backlog is full. */
const ROOM_WAIT_MS = 1_000;
/** The keys a staged short is counted as (a browser's first follow of a short: about seven). */
const STAGED_KEYS = 7;

/** Follows whose values (FIELDS each) a Staged keeps as a list before it counts them in maps. */
const LIST_FOLLOWS = 16;

/**
 * The values of one follow, in this order: target, referrer host, country, user agent, visitor
 * digest. A Staged keeps them as a flat list (most shorts are followed once or twice a second: a
 * list of a few strings, where five maps per short took a kilobyte of heap until the flush).
 */
const FIELDS = 5;
const [TARGET, REFERRER, COUNTRY, AGENT, VISITOR] = [0, 1, 2, 3, 4];

/** A short's follows in one hour, counted by value until stage() makes aggregate keys of them. */
interface Staged {
  hour: number;
  visits: number;
  bots: number;
  uses: number;
  /** The values of the first follows (FIELDS per follow), until LIST_FOLLOWS of them. */
  list: string[] | null;
  /** The values counted per field, from the follow that filled the list on (instead of it). */
  counted: Array<Map<string, number>> | null;
}

function count(map: Map<string, number>, key: string): void {
  map.set(key, (map.get(key) ?? 0) + 1);
}

/** Counts a full list into the maps, which count the short's later follows. */
function fold(s: Staged, list: string[]): void {
  const maps = (s.counted = Array.from({ length: FIELDS }, () => new Map<string, number>()));
  for (let i = 0; i < list.length; i++) count(maps[i % FIELDS], list[i]);
  s.list = null;
}

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
  /** Counts of the follows since the last stage(), per short (bounded by the flush interval). */
  private readonly staged = new Map<string, Staged>();
  /** The backlog's bound in keys (STATS_BACKLOG_KEYS; tests set a small one). */
  backlogLimit = STATS_BACKLOG_KEYS;
  /** How long a follow waits for room at most (ROOM_WAIT_MS; tests set a short one). */
  roomWaitMs = ROOM_WAIT_MS;
  /** The last flush failed (and no batch was written since): follows do not wait for room. */
  private failing = false;
  /** The follows waiting for room: released by the next batch written, a failure, or a timer. */
  private waiting: { promise: Promise<void>; release: () => void; timer: NodeJS.Timeout } | null =
    null;
  /** Follows whose statistics were not kept since the last log line, and when that was. */
  private dropped = 0;
  private droppedLoggedAt = 0;
  private readonly logger = new Logger(StatisticsRecorder.name);

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
    metrics.gauge(
      'url_shorter_statistics_backlog_keys',
      `Statistics aggregate keys waiting for the writer (a short staged since the last flush counted as ${STAGED_KEYS}); follows wait for the writer from ${STATS_BACKLOG_KEYS} on`,
      () => this.backlog(),
    );
  }

  onModuleInit(): void {
    this.timer = setInterval(() => void this.tick(), STATS_FLUSH_MS);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    this.release();
    this.stage();
    try {
      await this.buffer.drain(this.writeBatch);
    } catch (err) {
      this.failures.background(err, 'Writing statistics at shutdown', StatisticsRecorder.name);
    }
    await this.writer.close?.();
  }

  /**
   * One follow of a short (a redirect or a bot's preview), with where a redirect went (`default`
   * or the number of the redirect rule). Never throws, never waits. Kept first per short, as a
   * list of the follows' values and, from LIST_FOLLOWS follows on, in maps counting them (no aggregate
   * key is built per follow); stage() moves them into the buffer's keys before every flush.
   */
  record(
    shortId: string,
    input: FollowInput,
    target: TargetName = 'default',
    now = Date.now(),
  ): void {
    if (!this.config.stats.enabled) return;
    if (this.overflowing()) return this.drop();
    const s = this.stagedFor(shortId, hourOf(now));
    if (input.bot) {
      s.bots++;
      this.metrics.botHits.inc();
      return;
    }
    s.visits++;
    this.metrics.visits.inc();
    const v = input.visitor;
    if (!v) return;
    const referrer = referrerHost(v.referer);
    const country = countryCode(v.country ?? this.geo.country(v.address));
    // The one-shot hash: a third of createHash's cost for a short input.
    const visitor = hash('sha256', `${v.address}\n${v.userAgent}\n${shortId}`, 'base64url');
    const maps = s.counted;
    if (maps) {
      count(maps[TARGET], target);
      count(maps[REFERRER], referrer);
      count(maps[COUNTRY], country);
      count(maps[AGENT], v.userAgent);
      count(maps[VISITOR], visitor);
      return;
    }
    const list = (s.list ??= []);
    list.push(target, referrer, country, v.userAgent, visitor);
    // A short followed often: counted in maps from now on (memory by distinct values).
    if (list.length === FIELDS * LIST_FOLLOWS) fold(s, list);
  }

  /** The staged counts of a short in this hour (a short's counts of an earlier hour are staged). */
  private stagedFor(shortId: string, hour: number): Staged {
    let s = this.staged.get(shortId);
    if (s === undefined || s.hour !== hour) {
      if (s !== undefined) this.stageShort(shortId, s);
      s = {
        hour,
        visits: 0,
        bots: 0,
        uses: 0,
        list: null,
        counted: null,
      };
      this.staged.set(shortId, s);
    }
    return s;
  }

  /** Moves every staged count into the buffer as its aggregate keys (before a count, at shutdown). */
  private stage(): void {
    this.stageFirst(this.staged.size);
  }

  /** Moves the first `n` staged shorts (the longest staged) into the buffer; answers how many. */
  private stageFirst(n: number): number {
    let moved = 0;
    for (const [shortId, s] of this.staged) {
      if (moved === n) break;
      this.staged.delete(shortId);
      this.stageShort(shortId, s);
      moved++;
    }
    return moved;
  }

  /**
   * stage() for a flush: STAGE_SLICE shorts at a time with a turn of the event loop between, of
   * the shorts staged when it starts (follows go on meanwhile: a short staged again later is added
   * to the same keys).
   */
  private async stageInSlices(): Promise<void> {
    for (let left = this.staged.size; left > 0;) {
      const moved = this.stageFirst(Math.min(STAGE_SLICE, left));
      if (moved === 0) return; // a stage() meanwhile took them
      left -= moved;
      if (left > 0) await nextTurn();
    }
  }

  private stageShort(shortId: string, s: Staged): void {
    const b = this.buffer;
    const day = dayOfHour(s.hour);
    if (s.visits) b.add(keys.hourly(shortId, s.hour, 'visits'), s.visits);
    if (s.bots) b.add(keys.hourly(shortId, s.hour, 'bots'), s.bots);
    if (s.uses) b.add(keys.uses(shortId), s.uses);
    const put = (field: number, value: string, n: number) => {
      if (field === TARGET) b.add(keys.value(shortId, day, 'target', value), n);
      else if (field === REFERRER) b.add(keys.value(shortId, day, 'referrer', value), n);
      else if (field === COUNTRY) b.add(keys.value(shortId, day, 'country', value), n);
      else if (field === AGENT) b.add(keys.agent(shortId, day, value), n);
      else b.add(keys.visitor(shortId, s.hour, value), n);
    };
    if (s.counted) s.counted.forEach((map, field) => map.forEach((n, v) => put(field, v, n)));
    if (s.list) for (let i = 0; i < s.list.length; i++) put(i % FIELDS, s.list[i], 1);
  }

  /**
   * Writes everything recorded so far (after a write that is already running); a failure keeps the
   * aggregate for the next flush (one log line per interval).
   */
  async flush(): Promise<void> {
    await this.stageInSlices();
    try {
      await this.buffer.drain(this.writeBatch);
    } catch (err) {
      // Follows waiting for room are answered now, and later ones do not wait while it fails.
      this.failing = true;
      this.release();
      this.failures.background(err, 'Writing statistics', StatisticsRecorder.name);
    }
  }

  /** The writer's batch; each one written makes room for the follows waiting for it. */
  private readonly writeBatch: BatchWriter = async (batchId, counts) => {
    const written = await this.writer.write(batchId, counts);
    this.failing = false;
    this.release();
    return written;
  };

  /** Aggregate keys waiting for the writer, a staged short counted as STAGED_KEYS (cheap). */
  backlog(): number {
    return this.buffer.size + this.staged.size * STAGED_KEYS;
  }

  private overflowing(): boolean {
    return this.backlog() >= this.backlogLimit * BACKLOG_HARD;
  }

  /**
   * Backpressure for the follow path, asked before every follow: undefined while the backlog is
   * below its bound (also while the writer fails: waiting would only slow every redirect), else a
   * promise that resolves when the writer has written its next batch, or after roomWaitMs. So
   * follows of ever new shorts slow down to the writer's pace instead of growing the heap.
   */
  room(): Promise<void> | undefined {
    if (this.failing || this.backlog() < this.backlogLimit) return undefined;
    if (!this.waiting) {
      let release!: () => void;
      const promise = new Promise<void>((resolve) => (release = resolve));
      const timer = setTimeout(() => this.release(), this.roomWaitMs);
      timer.unref();
      this.waiting = { promise, release, timer };
      // The writer may be idle until the next tick: start the flush now.
      void this.tick();
    }
    return this.waiting.promise;
  }

  private release(): void {
    const w = this.waiting;
    if (!w) return;
    this.waiting = null;
    clearTimeout(w.timer);
    w.release();
  }

  /** A follow whose statistics are not kept: counted, and logged once per interval. */
  private drop(): void {
    this.metrics.statsDropped.inc();
    this.dropped++;
    const now = Date.now();
    if (now - this.droppedLoggedAt < OUTAGE_LOG_INTERVAL_MS) return;
    this.logger.warn(
      `Statistics backlog full (${this.backlog()} keys waiting for the writer): follows are ` +
        `answered without their statistics (${this.dropped} since the last line)`,
    );
    this.dropped = 0;
    this.droppedLoggedAt = now;
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
    this.stage();
    return this.buffer.size;
  }

  /**
   * The follow path's use counts, carried in this buffer (when statistics are enabled): a follow's
   * use and its aggregates are written in one batch transaction.
   */
  readonly uses: UseCounter = {
    add: (shortId) => {
      // Kept even when the follow's statistics are not (beyond the backlog's bound): a use count
      // is a key per existing short, not per value a request brings, and the short shows it.
      // A use counts in the hour of its follow's visit (the staged counts of that short).
      this.stagedFor(shortId, hourOf(Date.now())).uses++;
    },
    flush: () => this.flush(),
    pending: () => {
      this.stage();
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
