import type { ErrorKey, FieldErrorPath } from '@shared/error-keys';
import { errors as catalogue } from '../i18n/de/errors';

/**
 * The two ways an API call fails. The client (`client.ts`) throws exactly these:
 * `ApiError` for every answer that is not ok (the server answers problem+json, see docs/api.md),
 * `NetworkError` when there is no answer at all (network down, 5 s timeout).
 */

/** A non-ok answer of the server, read from its problem+json body (other bodies leave the fields empty). */
export class ApiError extends Error {
  /** The HTTP status of the answer. */
  readonly status: number;
  /** The problem's `detail` (English, for API clients; the web client speaks by `errorKey`). */
  readonly detail: string | undefined;
  /** The problem's stable `errorKey` (e.g. `entity_not_exists`); undefined for a key this client does not know. */
  readonly errorKey: ErrorKey | undefined;
  /** One message per invalid field (validation problems; English). */
  readonly fieldErrors: Readonly<Record<string, string>>;
  /** The stable key of a field's error, where the server gives one (known keys only). */
  readonly fieldErrorKeys: Readonly<Record<string, ErrorKey>>;
  /** Where inside a field its error is (`['rules', 2, 'conditions', 0]`), where the server says. */
  readonly fieldErrorPaths: Readonly<Record<string, FieldErrorPath>>;
  /** The problem's `title` (the HTTP reason phrase). */
  readonly title: string | undefined;
  /** The parsed body as it came (e.g. the health report of a 503 from /management/health). */
  readonly body: unknown;
  /** Seconds until the call may succeed (a 429 of a rate limit: `retryAfter`, or Retry-After). */
  readonly retryAfter: number | undefined;

  constructor(status: number, body: unknown, retryAfterHeader?: string | null) {
    const problem = body !== null && typeof body === 'object' ? body : {};
    const text = (key: string): string | undefined => {
      const v: unknown = (problem as Record<string, unknown>)[key];
      return typeof v === 'string' && v.trim() !== '' ? v : undefined;
    };
    const detail = text('detail');
    const title = text('title');
    super(detail ?? title ?? `HTTP ${status}`);
    this.name = 'ApiError';
    this.status = status;
    this.detail = detail;
    this.title = title;
    this.errorKey = errorKeyOf(text('errorKey'));
    this.fieldErrors = fieldErrorsOf((problem as Record<string, unknown>).fieldErrors);
    this.fieldErrorKeys = fieldErrorKeysOf((problem as Record<string, unknown>).fieldErrorKeys);
    this.fieldErrorPaths = fieldErrorPathsOf((problem as Record<string, unknown>).fieldErrorPaths);
    this.body = body;
    const retry: unknown = (problem as Record<string, unknown>).retryAfter ?? retryAfterHeader;
    const seconds = typeof retry === 'string' && /^\d{1,9}$/.test(retry) ? Number(retry) : retry;
    this.retryAfter =
      typeof seconds === 'number' && Number.isInteger(seconds) && seconds >= 0
        ? seconds
        : undefined;
  }

  /** Reads the body of a non-ok response (JSON when it parses, else the text, else nothing). */
  static async fromResponse(response: Response): Promise<ApiError> {
    let body: unknown;
    try {
      const text = await response.text();
      try {
        body = text ? (JSON.parse(text) as unknown) : undefined;
      } catch {
        body = text;
      }
    } catch {
      body = undefined;
    }
    return new ApiError(response.status, body, response.headers.get('retry-after'));
  }

  /** A rate limit refused the call (429 `rate_limited`); `retryAfter` says when to try again. */
  get rateLimited(): boolean {
    return this.status === 429 && this.errorKey === 'rate_limited';
  }

  /** The server's database (or another dependency) is away: 503 with Retry-After. */
  get unavailable(): boolean {
    return this.status === 503;
  }
}

/**
 * The keys the client knows: those of its error catalogue, which names every key (`satisfies
 * Record<ErrorKey, string>`), so the bundle carries no second list of them.
 */
const KNOWN_KEYS: ReadonlySet<string> = new Set(Object.keys(catalogue.errors));

function errorKeyOf(value: unknown): ErrorKey | undefined {
  return typeof value === 'string' && KNOWN_KEYS.has(value) ? (value as ErrorKey) : undefined;
}

function fieldErrorKeysOf(value: unknown): Record<string, ErrorKey> {
  if (value === null || typeof value !== 'object') return {};
  const keys: Record<string, ErrorKey> = {};
  for (const [field, key] of Object.entries(value)) {
    const known = errorKeyOf(key);
    if (known) keys[field] = known;
  }
  return keys;
}

const isPathStep = (step: unknown): step is string | number =>
  typeof step === 'string' || (typeof step === 'number' && Number.isInteger(step) && step >= 0);

function fieldErrorPathsOf(value: unknown): Record<string, FieldErrorPath> {
  if (value === null || typeof value !== 'object') return {};
  const paths: Record<string, FieldErrorPath> = {};
  for (const [field, path] of Object.entries(value)) {
    if (Array.isArray(path) && path.every(isPathStep)) paths[field] = path;
  }
  return paths;
}

function fieldErrorsOf(value: unknown): Record<string, string> {
  if (value === null || typeof value !== 'object') return {};
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, String(v)]));
}

/** No answer at all: the network failed or the backend timeout passed. */
export class NetworkError extends Error {
  constructor(cause: unknown) {
    super(cause instanceof Error ? cause.message : 'Network error', { cause });
    this.name = 'NetworkError';
  }
}
