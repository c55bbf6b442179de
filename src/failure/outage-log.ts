/** Where an outage's lines and its one report go. */
export interface OutageSink {
  log(level: 'error' | 'warn' | 'info', message: string): void;
  report(err: unknown): void;
}

/** Lines about a dependency outage come at most this often, however many requests fail. */
export const OUTAGE_LOG_INTERVAL_MS = 10_000;

/**
 * Turns a stream of failures of one dependency (the database, Redis) into a few log lines: one
 * when the outage starts (reported to Sentry once), one per interval with the number of failed
 * calls while it lasts, and one when a whole interval passes without a failure (the end).
 */
export class OutageLog {
  private active = false;
  private since = 0;
  private failures = 0;
  private total = 0;
  private lastCode = '';
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly name: string,
    private readonly sink: OutageSink,
    /** What the app does meanwhile, for the first line. */
    private readonly meanwhile = 'answering 503 until it is back',
    private readonly intervalMs = OUTAGE_LOG_INTERVAL_MS,
  ) {}

  get isActive(): boolean {
    return this.active;
  }

  /** One failed call; `code` is a short error name safe for logs (never a driver message). */
  failure(err: unknown, code: string): void {
    this.failures++;
    this.total++;
    this.lastCode = code;
    if (this.active) return;
    this.active = true;
    this.since = Date.now();
    this.failures = 0;
    this.sink.log('error', `${this.name} unavailable (${code}): ${this.meanwhile}`);
    this.sink.report(err);
    this.timer = setInterval(() => this.tick(), this.intervalMs);
    this.timer.unref();
  }

  private tick(): void {
    if (this.failures > 0) {
      this.sink.log(
        'warn',
        `${this.name} still unavailable (${this.lastCode}): ${this.failures} failed calls in the last ${Math.round(this.intervalMs / 1000)} s`,
      );
      this.failures = 0;
      return;
    }
    const seconds = Math.round((Date.now() - this.since) / 1000);
    this.sink.log(
      'info',
      `${this.name} available again after about ${seconds} s (${this.total} failed calls)`,
    );
    this.stop();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.active = false;
    this.total = 0;
  }
}
