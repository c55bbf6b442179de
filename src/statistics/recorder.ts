import { hash } from 'node:crypto';
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
import { CacheBus } from '../redis/cache-bus';
import { type BatchWriter, CountBuffer } from '../database/count-buffer';
import { engineOf } from '../database/dialect';
import { FailureReporter } from '../failure/failure-reporter';
import { OUTAGE_LOG_INTERVAL_MS } from '../failure/outage-log';
import { MetricsService } from '../metrics/metrics.service';
import { SHORTS_DELETED_CHANNEL } from '../shorts/short-events';
import { FollowStore } from '../shorts/follow-store';
import { FOLLOWED_MAX, type FollowedSink, type FollowedVisit } from './followed';
import { GeoLookup } from './geo';
import { keys, StatsWriter } from './stats-writer';
import { StatsWriterThread } from './stats-writer-thread';
import { countryCode, dayOfHour, hourOf, parseAgent, referrerHost } from './traits';

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
 * second on 2 cores) or while the database is down. Every value a key holds is cut or reduced
 * before it is kept (a referrer to its host, a user agent to its traits), so a key takes a bounded
 * amount of heap; the byte bound (STATS_BACKLOG_MB) bounds the whole.
 */
export const STATS_BACKLOG_KEYS = 100_000;
/** The backlog's memory at most, in MiB, when STATS_BACKLOG_MB is not set. */
export const STATS_BACKLOG_MB = 32;
/**
 * Beyond this multiple of the key bound a follow's statistics are not kept: the writer is failing
 * (waiting would only slow every redirect) or follows waited in vain. The follow itself is answered
 * as always, and its use of an unlimited short is still counted. The byte bound is the hard one
 * (STATS_BACKLOG_MB): follows wait from STATS_BACKLOG_MB / BACKLOG_HARD on.
 */
const BACKLOG_HARD = 1.25;
/**
 * Heap a key of the buffer takes besides its characters (one byte each: every part is Latin-1):
 * the map's entry, the string's header and rounding. Measured: see docs/performance.md, "The
 * backlog's bound".
 */
export const KEY_BYTES = 64;
/**
 * The characters of a key besides its value: kind, separators, hour or day, dimension (the short's
 * id is added to it).
 */
const KEY_PREFIX_CHARS = 20;
/** A staged short's object and its first keys (hourly visits or bots, uses), short id aside. */
const STAGED_BYTES = 3 * (KEY_BYTES + KEY_PREFIX_CHARS) + 120;
/** The five maps a staged short counts its follows in once its list is full. */
const FOLDED_BYTES = 5 * 160;
/** A follow waits this long at most for the writer's next batch when the backlog is full. */
const ROOM_WAIT_MS = 1_000;
/** The keys a staged short is counted as (a browser's first follow of a short: about seven). */
const STAGED_KEYS = 7;

/** Follows whose values (FIELDS each) a Staged keeps as a list before it counts them in maps. */
const LIST_FOLLOWS = 16;

/**
 * The values of one follow, in this order: target, referrer host, country, the user agent's traits
 * (browser, OS, device: never the agent itself), visitor digest. A Staged keeps them as a flat list (most shorts are followed once or twice a second: a
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
  /** The heap its keys will take in the buffer, estimated (see StatisticsRecorder.bytes). */
  bytes: number;
}

/** Counts `key`; answers whether it is new in the map. */
function count(map: Map<string, number>, key: string): boolean {
  const n = map.get(key);
  map.set(key, (n ?? 0) + 1);
  return n === undefined;
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
 * in-memory database), an unsalted digest of the visitor and the user agent's traits (remembered
 * per agent in an LRU: a parse only for an agent not seen lately). No header is kept as it came.
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
  /** The backlog's bound in bytes of heap, estimated (STATS_BACKLOG_MB; tests set a small one). */
  backlogBytesLimit: number;
  /** The staged shorts' bytes, estimated (the sum of their `bytes`). */
  private stagedBytes = 0;
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
    shorts: FollowStore,
    bus: CacheBus,
  ) {
    const file = (ds.options as { database?: unknown }).database;
    if (engineOf(ds) === 'sqlite' && typeof file === 'string' && file && file !== ':memory:') {
      // A SQLite file: the batches are written by a worker thread with its own connection, so
      // they do not hold this event loop (better-sqlite3 is synchronous); batches of full size.
      this.buffer = new CountBuffer(STATS_BATCH_KEYS);
      this.writer = new StatsWriterThread({
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
    this.backlogBytesLimit = (config.stats.backlogMb ?? STATS_BACKLOG_MB) * 1024 * 1024;
    bus.on(SHORTS_DELETED_CHANNEL, (ids) => this.writer.gone(ids.split(',')));
    metrics.gauge(
      'url_shorter_statistics_backlog_keys',
      `Statistics aggregate keys waiting for the writer (a short staged since the last flush counted as ${STAGED_KEYS}); follows wait for the writer from ${STATS_BACKLOG_KEYS} on`,
      () => this.backlog(),
    );
    metrics.gauge(
      'url_shorter_statistics_backlog_bytes',
      `Heap the statistics waiting for the writer take, estimated from the characters of their keys; follows wait for the writer from ${Math.round(100 / BACKLOG_HARD)} % of STATS_BACKLOG_MB on, and keep no statistics beyond it`,
      () => this.bytes(),
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
    await this.writeFollowed().catch((err: unknown) =>
      this.failures.background(err, 'Writing short.followed events', StatisticsRecorder.name),
    );
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
   * key is built per follow); stage() moves them into the buffer's keys before every flush. A
   * human visit of a short that a user or a team owns (`owned`) is also kept for the webhooks'
   * `short.followed`; an anonymous short has no webhooks, and its visits neither cost the flush a
   * lookup of their short nor take the room of FOLLOWED_MAX.
   */
  record(
    shortId: string,
    input: FollowInput,
    target: TargetName = 'default',
    now = Date.now(),
    owned = true,
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
    // Only what the statistics show is kept: the referrer's host, the country's code, the agent's
    // traits (each cut to 100 characters) and the visitor's digest, never a header as it came.
    const referrer = referrerHost(v.referer);
    const country = countryCode(v.country ?? this.geo.country(v.address));
    const parsed = parseAgent(v.userAgent);
    const agent = parsed.traits;
    const sink = this.followedSink;
    if (owned && sink?.wanted() && this.followed.length < FOLLOWED_MAX) {
      // Beyond what a batch can send of one short, its visits are not kept: a link followed
      // thousands of times a second kept a visit object for each, and the flush looked them all up
      // to send a webhook's 200 at most.
      const kept = this.followedOf.get(shortId) ?? 0;
      if (kept < sink.perShort) {
        this.followedOf.set(shortId, kept + 1);
        this.followed.push({
          shortId,
          at: now,
          target,
          country,
          device: parsed.device,
          os: parsed.os,
          browser: parsed.browser,
          referrerHost: referrer,
        });
      }
    }
    // The one-shot hash: a third of createHash's cost for a short input.
    const visitor = hash('sha256', `${v.address}\n${v.userAgent}\n${shortId}`, 'base64url');
    // A key's estimate: KEY_BYTES, its prefix (the short's id and KEY_PREFIX_CHARS) and its value.
    const key = KEY_BYTES + KEY_PREFIX_CHARS + shortId.length;
    let grown = 0;
    const maps = s.counted;
    if (maps) {
      // Only a value new to the short adds a key.
      if (count(maps[TARGET], target)) grown += key + target.length;
      if (count(maps[REFERRER], referrer)) grown += key + referrer.length;
      if (count(maps[COUNTRY], country)) grown += key + country.length;
      if (count(maps[AGENT], agent)) grown += key + agent.length;
      if (count(maps[VISITOR], visitor)) grown += key + visitor.length;
    } else {
      const list = (s.list ??= []);
      list.push(target, referrer, country, agent, visitor);
      grown =
        5 * key + target.length + referrer.length + country.length + agent.length + visitor.length;
      // A short followed often: counted in maps from now on (memory by distinct values).
      if (list.length === FIELDS * LIST_FOLLOWS) {
        fold(s, list);
        grown += FOLDED_BYTES;
      }
    }
    s.bytes += grown;
    this.stagedBytes += grown;
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
        bytes: STAGED_BYTES + 3 * shortId.length,
      };
      this.stagedBytes += s.bytes;
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
    this.stagedBytes -= s.bytes;
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
    // The webhooks' visits first (their own failure never holds the statistics back).
    await this.writeFollowed().catch((err: unknown) =>
      this.failures.background(err, 'Writing short.followed events', StatisticsRecorder.name),
    );
    try {
      await this.buffer.drain(this.writeBatch);
    } catch (err) {
      // Follows waiting for room are answered now, and later ones do not wait while it fails.
      this.failing = true;
      this.release();
      this.failures.background(err, 'Writing statistics', StatisticsRecorder.name);
    }
  }

  /** Where human visits go with each batch (the webhooks' `short.followed`), and those kept. */
  private followedSink: FollowedSink | null = null;
  private followed: FollowedVisit[] = [];
  /** The visits kept per short since the last batch (at most the sink's perShort each). */
  private followedOf = new Map<string, number>();

  useFollowedSink(sink: FollowedSink): void {
    this.followedSink = sink;
  }

  /** Hands the visits kept since the last batch to the sink; a failure keeps them for the next. */
  private async writeFollowed(): Promise<void> {
    const sink = this.followedSink;
    if (!sink || this.followed.length === 0) return;
    const batch = this.followed;
    this.followed = [];
    this.followedOf = new Map();
    try {
      await sink.write(batch);
    } catch (err) {
      this.followed = batch.concat(this.followed).slice(0, FOLLOWED_MAX);
      this.followedOf = new Map();
      for (const v of this.followed) {
        this.followedOf.set(v.shortId, (this.followedOf.get(v.shortId) ?? 0) + 1);
      }
      throw err;
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

  /**
   * The heap the backlog takes, estimated (cheap): per key of the buffer its characters and
   * KEY_BYTES; per staged short STAGED_BYTES and the keys its values will make (a value listed
   * counted as a key of its own, a value counted in a map once).
   */
  bytes(): number {
    return this.buffer.keyChars + this.buffer.size * KEY_BYTES + this.stagedBytes;
  }

  /** Beyond its bound in keys (1.25 times the waiting bound) or in bytes (STATS_BACKLOG_MB). */
  private overflowing(): boolean {
    return (
      this.backlog() >= this.backlogLimit * BACKLOG_HARD || this.bytes() >= this.backlogBytesLimit
    );
  }

  /** Full: follows wait for the writer (from the key bound, or 1/1.25 of the byte bound). */
  private full(): boolean {
    return (
      this.backlog() >= this.backlogLimit || this.bytes() >= this.backlogBytesLimit / BACKLOG_HARD
    );
  }

  /**
   * Backpressure for the follow path, asked before every follow: undefined while the backlog is
   * below its bounds (keys: backlogLimit; bytes: backlogBytesLimit / BACKLOG_HARD), also while the
   * writer fails (waiting would only slow every redirect), else a
   * promise that resolves when the writer has written its next batch, or after roomWaitMs. So
   * follows of ever new shorts slow down to the writer's pace instead of growing the heap.
   */
  room(): Promise<void> | undefined {
    if (this.failing || !this.full()) return undefined;
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
    const mb = (this.bytes() / 1024 / 1024).toFixed(1);
    this.logger.warn(
      `Statistics backlog full (${this.backlog()} keys, about ${mb} MB waiting for the writer): ` +
        `follows are answered without their statistics (${this.dropped} since the last line)`,
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
