import { ApiError } from '../api/errors';
import { de, t } from '../i18n/de';

/**
 * German texts for failed API calls. Every non-ok answer arrives as an ApiError (problem+json);
 * anything else (NetworkError, a bug) has no detail. A 503 (the server's database is away; the
 * server adds Retry-After) always reads as 'Der Dienst ist gerade nicht erreichbar …'.
 */

/** The problem's `detail` of an ApiError. */
function errorDetail(err: unknown): string | undefined {
  return err instanceof ApiError ? err.detail : undefined;
}

function unavailable(err: unknown): boolean {
  return err instanceof ApiError && err.unavailable;
}

/** When a refused call may be tried again, as German words ('in 42 Sekunden', 'um 14:05 Uhr'). */
export function retryWhen(seconds: number, now: Date = new Date()): string {
  const w = de.error.retry;
  if (seconds <= 1) return w.oneSecond;
  if (seconds < 60) return t(w.seconds, { n: seconds });
  const minutes = Math.ceil(seconds / 60);
  if (minutes === 1) return w.oneMinute;
  if (minutes < 60) return t(w.minutes, { n: minutes });
  const at = new Date(now.getTime() + seconds * 1000);
  const time = at.toLocaleTimeString('de-DE', { hour: '2-digit', minute: '2-digit' });
  if (at.toDateString() === now.toDateString()) return t(w.at, { time });
  const date = at.toLocaleDateString('de-DE', { day: '2-digit', month: '2-digit' });
  return t(w.atDay, { date, time });
}

/** The text of a call refused by a rate limit (429 `rate_limited`), or undefined for any other failure. */
export function rateLimitText(err: unknown, now: Date = new Date()): string | undefined {
  if (!(err instanceof ApiError) || !err.rateLimited) return undefined;
  return err.retryAfter === undefined
    ? de.error.rateLimitedLater
    : t(de.error.rateLimited, { when: retryWhen(err.retryAfter, now) });
}

/**
 * The generic text of a failure: the unavailable text for a 503, the rate limit's text with its
 * time for a 429, else the server's detail, else `fallback`.
 */
export function problemText(err: unknown, fallback: string = de.error.unknown): string {
  if (unavailable(err)) return de.error.unavailable;
  return rateLimitText(err) ?? errorDetail(err) ?? fallback;
}

/** The catalogue's text for a detail; own keys only (a detail such as `toString` is no text). */
function catalogued(catalogue: Readonly<Record<string, string>>, detail: string | undefined) {
  return detail !== undefined && Object.hasOwn(catalogue, detail) ? catalogue[detail] : undefined;
}

/** Create errors by `detail` (docs/api.md lists the details); anything else: 'Link konnte nicht erstellt werden'. */
export function createErrorMessage(err: unknown): string {
  if (unavailable(err)) return de.error.unavailable;
  return (
    rateLimitText(err) ?? catalogued(de.create.errors, errorDetail(err)) ?? de.create.errorOther
  );
}

/** Report errors by `detail`; anything else: 'Die Beschwerde konnte nicht gesendet werden.' */
export function reportErrorMessage(err: unknown): string {
  if (unavailable(err)) return de.error.unavailable;
  return (
    rateLimitText(err) ?? catalogued(de.report.errors, errorDetail(err)) ?? de.report.errorOther
  );
}

/** The short (or entity) does not exist: 404, or the `entity_not_exists` key. */
export function isNotFound(err: unknown): boolean {
  return err instanceof ApiError && (err.errorKey === 'entity_not_exists' || err.status === 404);
}

/** One message per invalid field of a validation problem. */
export function fieldErrors(err: unknown): Readonly<Record<string, string>> {
  return err instanceof ApiError ? err.fieldErrors : {};
}

/**
 * The load error of a table: 'Status {status}: {message}' with the detail or title of the answer
 * ('Unbekannter Fehler' without one); without an answer, the error's own message.
 */
export function loadErrorText(err: unknown): string {
  if (err instanceof ApiError) {
    const message = err.detail ?? err.title ?? de.shorts.unknownError;
    return t(de.shorts.loadErrorStatus, { status: err.status, message });
  }
  if (err instanceof Error && err.message.trim() !== '') return err.message;
  return de.shorts.unknownError;
}
