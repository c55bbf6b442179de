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

/** The generic text of a failure: the unavailable text for a 503, else the server's detail, else `fallback`. */
export function problemText(err: unknown, fallback: string = de.error.unknown): string {
  if (unavailable(err)) return de.error.unavailable;
  return errorDetail(err) ?? fallback;
}

/** The catalogue's text for a detail; own keys only (a detail such as `toString` is no text). */
function catalogued(catalogue: Readonly<Record<string, string>>, detail: string | undefined) {
  return detail !== undefined && Object.hasOwn(catalogue, detail) ? catalogue[detail] : undefined;
}

/** Create errors by `detail` (docs/api.md lists the details); anything else: 'Link konnte nicht erstellt werden'. */
export function createErrorMessage(err: unknown): string {
  if (unavailable(err)) return de.error.unavailable;
  return catalogued(de.create.errors, errorDetail(err)) ?? de.create.errorOther;
}

/** Report errors by `detail`; anything else: 'Die Beschwerde konnte nicht gesendet werden.' */
export function reportErrorMessage(err: unknown): string {
  if (unavailable(err)) return de.error.unavailable;
  return catalogued(de.report.errors, errorDetail(err)) ?? de.report.errorOther;
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
