import { Inject, Injectable, type LoggerService, type OnApplicationShutdown } from '@nestjs/common';
import { AsyncLocalStorage } from 'node:async_hooks';
import pino, { type Logger as PinoLogger } from 'pino';
import { prettyFactory } from 'pino-pretty';
import { APP_CONFIG, type AppConfig, type LogLevel } from '../config/config';
import { Redactor } from './redact';

/** Levels as the management API names them (Spring Boot style), most severe first. */
export const MANAGEMENT_LEVELS = [
  'OFF',
  'FATAL',
  'ERROR',
  'WARN',
  'INFO',
  'DEBUG',
  'TRACE',
] as const;
export type ManagementLevel = (typeof MANAGEMENT_LEVELS)[number];

type Level = LogLevel | 'off';
const SEVERITY: Record<Level, number> = {
  off: 100,
  fatal: 60,
  error: 50,
  warn: 40,
  info: 30,
  debug: 20,
  trace: 10,
};

export const ROOT_LOGGER = 'ROOT';

export interface LogEntry {
  time: string;
  level: string;
  logger: string;
  message: string;
  requestId?: string;
  [key: string]: unknown;
}

/** Per-request context carried through async calls (request id). */
export const requestContext = new AsyncLocalStorage<{ requestId: string }>();

export function currentRequestId(): string | undefined {
  return requestContext.getStore()?.requestId;
}

/**
 * Nest's own boot chatter (module wiring, each route mapped, "starting", "started"): their `log`
 * calls are written at debug, so a start at info says only what the operator needs (main.ts).
 */
export const NEST_BOOT_CONTEXTS: ReadonlySet<string> = new Set([
  'NestFactory',
  'NestApplication',
  'InstanceLoader',
  'RoutesResolver',
  'RouterExplorer',
]);

/**
 * Readable single lines for a person (LOG_FORMAT=pretty) from a JSON line:
 * `[2026-12-06 12:32:41.676] INFO: Bootstrap [request id]: message {other fields}`,
 * in the local time zone; coloured only when `colour` (stdout is a terminal).
 */
export function prettyLine(colour: boolean): (jsonLine: string) => string {
  return prettyFactory({
    colorize: colour,
    messageKey: 'message',
    translateTime: 'SYS:yyyy-mm-dd HH:MM:ss.l',
    ignore: 'logger,requestId',
    singleLine: true,
    messageFormat: (log, key) =>
      `${String(log.logger)}${typeof log.requestId === 'string' ? ` [${log.requestId}]` : ''}: ${String(log[key])}`,
  });
}

/** A bounded ring of the most recent log lines (already scrubbed JSON). */
class Ring {
  private readonly items: string[] = [];
  private start = 0;
  constructor(private readonly capacity: number) {}
  push(line: string): void {
    if (this.capacity <= 0) return;
    if (this.items.length < this.capacity) this.items.push(line);
    else {
      this.items[this.start] = line;
      this.start = (this.start + 1) % this.capacity;
    }
  }
  toArray(): string[] {
    return [...this.items.slice(this.start), ...this.items.slice(0, this.start)];
  }
}

/**
 * The application's logger: pino (JSON lines) under Nest's LoggerService, with per-logger levels
 * changeable at runtime, request ids, secret scrubbing and an in-memory ring of recent lines (JSON)
 * for /management/logs. On stdout the lines are JSON or readable ones (LOG_FORMAT, `prettyLine`). Output to stdout is asynchronous (sonic-boom), so logging never blocks
 * a request on I/O.
 */
@Injectable()
export class LogService implements LoggerService, OnApplicationShutdown {
  readonly redactor = new Redactor();
  private readonly pino: PinoLogger;
  private readonly ring: Ring;
  private readonly stdout?: pino.DestinationStream & { flushSync?: () => void; end?: () => void };
  private rootLevel: Level;
  private readonly initialLevel: Level;
  private readonly configured = new Map<string, Level>();
  private readonly known = new Set<string>([ROOT_LOGGER]);
  private teeTarget?: LoggerService;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.initialLevel = config.logLevel;
    this.rootLevel = config.logLevel;
    this.ring = new Ring(config.logBufferSize);
    // The sensitive variables of the table (src/config/variables.ts) and the APP_SECRET resolved at
    // boot (which may come from the data folder rather than the environment).
    this.redactor.addSecrets([config.appSecret, ...config.secretValues]);
    if (config.logStdout) this.stdout = pino.destination({ dest: 1, sync: false, minLength: 0 });
    const stdout = this.stdout;
    // Every line is scrubbed once and kept as JSON in the ring. On stdout it goes as it is (json),
    // or made readable (pretty): only then is a line parsed again, and scrubbed again, since
    // un-escaping JSON may give back text the scrub of the JSON line could not match.
    const readable =
      config.logFormat === 'pretty' ? prettyLine(process.stdout.isTTY === true) : null;
    const sink =
      readable && stdout
        ? {
            write: (line: string) => {
              const clean = this.redactor.scrub(line);
              this.ring.push(clean);
              stdout.write(this.redactor.scrub(readable(clean)));
            },
          }
        : {
            write: (line: string) => {
              const clean = this.redactor.scrub(line);
              this.ring.push(clean);
              this.stdout?.write(clean);
            },
          };
    this.pino = pino(
      {
        level: 'trace', // gating happens per logger in isEnabled()
        base: undefined,
        messageKey: 'message',
        timestamp: pino.stdTimeFunctions.isoTime,
        formatters: { level: (label) => ({ level: label }) },
        redact: {
          paths: [
            'password',
            '*.password',
            'headers.authorization',
            'headers.cookie',
            'req.headers.authorization',
            'req.headers.cookie',
            'apiKey',
            '*.apiKey',
            'secret',
            '*.secret',
            'token',
            '*.token',
          ],
          censor: '******',
        },
      },
      sink,
    );
  }

  onApplicationShutdown(): void {
    try {
      this.stdout?.flushSync?.();
    } catch {
      /* stdout may already be closed */
    }
  }

  // ------------------------------------------------------------ levels

  /** Effective level of a logger: its own, else the nearest configured dotted parent, else ROOT. */
  effectiveLevel(name: string): Level {
    let n = name;
    for (;;) {
      const l = this.configured.get(n);
      if (l) return l;
      const dot = n.lastIndexOf('.');
      if (dot < 0) return this.rootLevel;
      n = n.slice(0, dot);
    }
  }

  isEnabled(level: LogLevel, logger: string): boolean {
    return SEVERITY[level] >= SEVERITY[this.effectiveLevel(logger)];
  }

  /** Sets (or with null resets) a logger's level; ROOT null returns to LOG_LEVEL. */
  setLevel(logger: string, level: ManagementLevel | null): void {
    const l = level === null ? null : (level.toLowerCase() as Level);
    if (logger === ROOT_LOGGER) {
      this.rootLevel = l ?? this.initialLevel;
      return;
    }
    this.known.add(logger);
    if (l === null) this.configured.delete(logger);
    else this.configured.set(logger, l);
  }

  loggers(): Record<
    string,
    { configuredLevel: ManagementLevel | null; effectiveLevel: ManagementLevel }
  > {
    const up = (l: Level) => l.toUpperCase() as ManagementLevel;
    // Keyed by names callers choose: no prototype, so `constructor` or `__proto__` are plain names.
    const out: Record<
      string,
      { configuredLevel: ManagementLevel | null; effectiveLevel: ManagementLevel }
    > = Object.create(null) as Record<
      string,
      { configuredLevel: ManagementLevel | null; effectiveLevel: ManagementLevel }
    >;
    for (const name of [...this.known].sort((a, b) =>
      a === ROOT_LOGGER ? -1 : b === ROOT_LOGGER ? 1 : a.localeCompare(b),
    )) {
      const configured = name === ROOT_LOGGER ? this.rootLevel : this.configured.get(name);
      out[name] = {
        configuredLevel: configured ? up(configured) : null,
        effectiveLevel: up(this.effectiveLevel(name)),
      };
    }
    return out;
  }

  // ------------------------------------------------------------ writing

  /** Structured entry point: `fields` are merged into the line (scrubbed like everything else). */
  write(level: LogLevel, logger: string, message: string, fields?: Record<string, unknown>): void {
    this.known.add(logger);
    if (!this.isEnabled(level, logger)) return;
    const requestId = currentRequestId();
    const obj: Record<string, unknown> = {
      logger,
      ...(fields ? (this.redactor.scrubValue(fields) as object) : {}),
    };
    if (requestId) obj.requestId = requestId;
    this.pino[level](obj, message);
  }

  /** Recent lines, oldest first; optionally only those at or after `since`. */
  recent(since?: Date): LogEntry[] {
    const out: LogEntry[] = [];
    const min = since?.getTime();
    for (const line of this.ring.toArray()) {
      try {
        const e = JSON.parse(line) as LogEntry;
        if (min !== undefined && Date.parse(e.time) < min) continue;
        out.push(e);
      } catch {
        /* a partial line cannot occur with the sync sink; skip defensively */
      }
    }
    return out;
  }

  /**
   * Also hands every Nest log call (scrubbed) to another LoggerService, e.g. a capturing logger
   * a test installed before the app was configured.
   */
  tee(target: LoggerService): void {
    this.teeTarget = target;
  }

  // ------------------------------------------------------------ Nest LoggerService

  log(message: unknown, ...rest: unknown[]): void {
    this.nest('info', message, rest);
  }
  error(message: unknown, ...rest: unknown[]): void {
    this.nest('error', message, rest);
  }
  warn(message: unknown, ...rest: unknown[]): void {
    this.nest('warn', message, rest);
  }
  debug(message: unknown, ...rest: unknown[]): void {
    this.nest('debug', message, rest);
  }
  verbose(message: unknown, ...rest: unknown[]): void {
    this.nest('trace', message, rest);
  }
  fatal(message: unknown, ...rest: unknown[]): void {
    this.nest('fatal', message, rest);
  }

  /** Nest calls log(message, context) and error(message, stack, context). */
  private nest(given: LogLevel, message: unknown, rest: unknown[]): void {
    const context =
      rest.length && typeof rest[rest.length - 1] === 'string'
        ? (rest[rest.length - 1] as string)
        : 'app';
    const level = given === 'info' && NEST_BOOT_CONTEXTS.has(context) ? 'debug' : given;
    if (this.teeTarget) {
      const scrub = (v: unknown) =>
        typeof v === 'string'
          ? this.redactor.scrub(v)
          : v instanceof Error
            ? this.redactor.scrub(`${v.message} ${v.stack ?? ''}`)
            : v;
      const method = level === 'info' ? 'log' : level === 'trace' ? 'verbose' : level;
      this.teeTarget[method]?.(scrub(message), ...rest.map(scrub));
    }
    const logger = context.replace(/[^A-Za-z0-9._-]/g, '') || 'app';
    this.known.add(logger);
    if (!this.isEnabled(level, logger)) return;
    let text: string;
    let fields: Record<string, unknown> | undefined;
    if (message instanceof Error) {
      text = message.message;
      fields = { err: { type: message.name, stack: message.stack } };
    } else if (typeof message === 'object' && message !== null) {
      text = '';
      fields = message as Record<string, unknown>;
    } else {
      text = String(message);
    }
    if (level === 'error' && rest.length >= 2 && typeof rest[0] === 'string')
      fields = { ...fields, stack: rest[0] };
    this.write(level, logger, text, fields);
  }
}
