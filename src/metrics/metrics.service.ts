import { Injectable, type OnModuleDestroy } from '@nestjs/common';
import { performance } from 'node:perf_hooks';
import {
  collectDefaultMetrics,
  Counter,
  type CounterConfiguration,
  Gauge,
  Histogram,
  Registry,
} from 'prom-client';
import { DataSource } from 'typeorm';

/** Every metric's name starts with this (CONTRACT "Hardening"), Node's default metrics too. */
export const METRIC_PREFIX = 'url_shorter_';
/** How often the event loop's delay is sampled: a timer due every 10 ms, and how late it ran. */
const LOOP_SAMPLE_MS = 10;
/** Buckets of the event-loop delay histogram, in seconds (a follow's budget is some 250 ms). */
const LOOP_BUCKETS = [
  0.001, 0.002, 0.005, 0.01, 0.015, 0.02, 0.03, 0.05, 0.075, 0.1, 0.15, 0.25, 0.5, 1, 2.5, 5, 10,
];

interface PgPool {
  totalCount: number;
  idleCount: number;
  waitingCount: number;
  options?: { max?: number };
}

interface MysqlPool {
  _allConnections?: { length: number };
  _freeConnections?: { length: number };
  _connectionQueue?: { length: number };
  config?: { connectionLimit?: number };
}

/**
 * A counter of the follow path: an increment is one number added in a plain object (by the value
 * of its one label), moved into the Prometheus counter when the registry is read. prom-client's own
 * `inc` hashes and validates its labels each time, about a microsecond a follow for two counters.
 */
export class TallyCounter<L extends string = never> {
  readonly counter: Counter<L>;
  private tally: Record<string, number> = Object.create(null) as Record<string, number>;
  private untallied = false;

  constructor(
    config: Omit<CounterConfiguration<L>, 'collect'>,
    private readonly label?: L,
  ) {
    // prom-client calls collect() before every read of the counter (scrapes, get()).
    const collect = () => this.collect();
    this.counter = new Counter<L>({ ...config, collect } as CounterConfiguration<L>);
  }

  /** One more (of label value `value`, for a counter with a label). */
  inc(value = ''): void {
    this.tally[value] = (this.tally[value] ?? 0) + 1;
    this.untallied = true;
  }

  private collect(): void {
    if (!this.untallied) return;
    const tally = this.tally;
    this.tally = Object.create(null) as Record<string, number>;
    this.untallied = false;
    for (const value of Object.keys(tally)) {
      if (this.label === undefined) this.counter.inc(tally[value]);
      else this.counter.inc({ [this.label]: value } as Partial<Record<L, string>>, tally[value]);
    }
  }
}

/**
 * Prometheus metrics of one app (its own registry, so several apps in one process never mix):
 * HTTP requests per route, follows and creates, reports, danger flags, database pool state, the
 * event loop's delay. Recording is a counter increment and a histogram observation: no I/O. The
 * services count where things happen (FollowService: follows, ShortCreateService: creates,
 * ReportService: reports and flags). Every name starts with `url_shorter_`; nothing resets when
 * it is read, so any number of Prometheus servers may scrape the same instance.
 */
@Injectable()
export class MetricsService implements OnModuleDestroy {
  readonly registry = new Registry();
  readonly httpRequests: Counter<'method' | 'route' | 'status'>;
  readonly httpDuration: Histogram<'method' | 'route'>;
  readonly follows: TallyCounter<'outcome'>;
  readonly creates: Counter<'kind'>;
  readonly reports: Counter;
  readonly flagged: Counter;
  readonly visits: TallyCounter;
  readonly botHits: TallyCounter;
  readonly statsDropped: TallyCounter;
  readonly jobRuns: Counter<'job'>;
  readonly claimsUnknown: Counter;
  readonly rateLimited: Counter<'limit'>;
  readonly qrRenders: Counter<'kind' | 'outcome'>;
  readonly linkChecks: Counter<'trigger' | 'outcome'>;
  readonly loopDelay: Histogram;
  private readonly loopTimer: NodeJS.Timeout;

  constructor(ds: DataSource) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry, prefix: METRIC_PREFIX });
    // Node's default event-loop gauges (…_nodejs_eventloop_lag_*) restart on every scrape, so
    // two scrapers would each see a part of the delays: the histogram below replaces them.
    for (const metric of this.registry.getMetricsAsArray())
      if (metric.name.startsWith(`${METRIC_PREFIX}nodejs_eventloop_lag`))
        this.registry.removeSingleMetric(metric.name);
    this.httpRequests = new Counter({
      name: 'url_shorter_http_server_requests_total',
      help: 'HTTP requests by method, route template and status',
      labelNames: ['method', 'route', 'status'],
      registers,
    });
    this.httpDuration = new Histogram({
      name: 'url_shorter_http_server_request_duration_seconds',
      help: 'HTTP request latency by method and route template',
      labelNames: ['method', 'route'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers,
    });
    this.follows = new TallyCounter(
      {
        name: 'url_shorter_follows_total',
        help: 'Follows of shorts by outcome (target, preview, fallback, not-found, dangerous, password-required, wrong-password, locked)',
        labelNames: ['outcome'],
        registers,
      },
      'outcome',
    );
    this.creates = new Counter({
      name: 'url_shorter_shorts_created_total',
      help: 'Shorts created',
      labelNames: ['kind'],
      registers,
    });
    this.reports = new Counter({
      name: 'url_shorter_reports_total',
      help: 'Reports filed',
      registers,
    });
    this.flagged = new Counter({
      name: 'url_shorter_shorts_flagged_dangerous_total',
      help: 'Shorts flagged dangerous because the report threshold was reached',
      registers,
    });
    this.visits = new TallyCounter({
      name: 'url_shorter_visits_total',
      help: 'Follows counted as visits in the statistics (redirects to the target, bots excluded)',
      registers,
    });
    this.botHits = new TallyCounter({
      name: 'url_shorter_bot_hits_total',
      help: 'Follows by bots (crawlers, link previews, empty user agents, HEAD), counted apart',
      registers,
    });
    this.statsDropped = new TallyCounter({
      name: 'url_shorter_statistics_dropped_total',
      help: 'Follows answered without their statistics because the statistics backlog was full: the database down or far behind the follows (their uses are still counted)',
      registers,
    });
    this.jobRuns = new Counter({
      name: 'url_shorter_job_runs_total',
      help: 'Runs of scheduled jobs on this instance (one instance per interval runs each job)',
      labelNames: ['job'],
      registers,
    });
    this.claimsUnknown = new Counter({
      name: 'url_shorter_use_claims_unknown_total',
      help: 'Use claims (maxUses) whose outcome was lost with the database connection: answered 503, the use may be spent',
      registers,
    });
    this.rateLimited = new Counter({
      name: 'url_shorter_rate_limited_total',
      help: 'Requests refused with 429 by a rate limit (anonCreate, userCreate, qrRender, healthCheck, domainVerify, teamCreate, bulk)',
      labelNames: ['limit'],
      registers,
    });
    this.qrRenders = new Counter({
      name: 'url_shorter_qr_renders_total',
      help: 'QR images rendered (cache misses) by kind (svg, png) and outcome (rendered; busy: the render queue was full or the render took too long; failed)',
      labelNames: ['kind', 'outcome'],
      registers,
    });
    this.linkChecks = new Counter({
      name: 'url_shorter_link_health_checks_total',
      help: 'Link-health checks of short targets by trigger (sweep: the daily job; now: asked for) and outcome (ok; failed: a failing status or no answer; uncheckable: an address the fetcher may not connect to)',
      labelNames: ['trigger', 'outcome'],
      registers,
    });
    // The event loop's delay: a timer due every LOOP_SAMPLE_MS observes how late it ran. A
    // histogram counts every observation for good (no reset when it is scraped), so two
    // Prometheus servers both see all of them (a gauge of quantiles since the last scrape split
    // them between the scrapers).
    this.loopDelay = new Histogram({
      name: 'url_shorter_event_loop_delay_seconds',
      help: `How late a timer due every ${LOOP_SAMPLE_MS} ms ran: how long callbacks waited for the event loop`,
      buckets: LOOP_BUCKETS,
      registers,
    });
    let last = performance.now();
    this.loopTimer = setInterval(() => {
      const now = performance.now();
      this.loopDelay.observe(Math.max(0, now - last - LOOP_SAMPLE_MS) / 1000);
      last = now;
    }, LOOP_SAMPLE_MS);
    this.loopTimer.unref();
    new Gauge({
      name: 'url_shorter_db_pool_connections',
      help: 'Database connections by state (SQLite: one embedded connection)',
      labelNames: ['state'],
      registers,
      collect() {
        this.reset();
        if (!ds.isInitialized) {
          this.set({ state: 'total' }, 0);
          return;
        }
        const driver = ds.driver as unknown as { pool?: MysqlPool; master?: PgPool };
        const pool = driver.pool;
        const pg = driver.master;
        if (ds.options.type === 'mysql' && pool) {
          const all = pool._allConnections?.length ?? 0;
          const free = pool._freeConnections?.length ?? 0;
          this.set({ state: 'total' }, all);
          this.set({ state: 'idle' }, free);
          this.set({ state: 'active' }, all - free);
          this.set({ state: 'pending' }, pool._connectionQueue?.length ?? 0);
          this.set({ state: 'max' }, pool.config?.connectionLimit ?? 0);
        } else if (ds.options.type === 'postgres' && pg) {
          this.set({ state: 'total' }, pg.totalCount);
          this.set({ state: 'idle' }, pg.idleCount);
          this.set({ state: 'active' }, pg.totalCount - pg.idleCount);
          this.set({ state: 'pending' }, pg.waitingCount);
          this.set({ state: 'max' }, pg.options?.max ?? 0);
        } else {
          this.set({ state: 'total' }, 1);
          this.set({ state: 'active' }, 1);
          this.set({ state: 'max' }, 1);
        }
      },
    });
  }

  onModuleDestroy(): void {
    clearInterval(this.loopTimer);
  }

  /**
   * A gauge read when the registry is read (a module's state: it reads, the registry asks). Its
   * name starts with `url_shorter_` (else this throws at start, when the module registers it).
   */
  gauge(name: string, help: string, read: () => number): void {
    if (!name.startsWith(METRIC_PREFIX))
      throw new Error(`metric ${name}: every metric's name starts with ${METRIC_PREFIX}`);
    new Gauge({
      name,
      help,
      registers: [this.registry],
      collect() {
        this.set(read());
      },
    });
  }

  /** Called once per finished HTTP request. */
  recordHttp(method: string, route: string, status: number, seconds: number): void {
    this.httpRequests.inc({ method, route, status: String(status) });
    this.httpDuration.observe({ method, route }, seconds);
  }

  async render(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }
}
