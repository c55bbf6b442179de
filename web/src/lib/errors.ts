import { STATUS_ERROR_KEYS, type ErrorKey } from '@shared/error-keys';
import {
  CODE_MAX_LENGTH,
  CODE_MIN_LENGTH,
  MAX_NAME_LENGTH,
  MAX_PASSWORD_LENGTH,
} from '@shared/limits';
import { SHORT_FIELDS, type ShortFieldName } from '@shared/short-fields';
import { ApiError } from '../api/errors';
import { locale, msg } from '../i18n/current';
import { t } from '../i18n/text';

/**
 * German texts for failed API calls, chosen by the problem's `errorKey` (never by its English
 * `detail`): the catalogue `msg.errors` has a text for every key. Every non-ok answer arrives as an
 * ApiError (problem+json); anything else (NetworkError, a bug) has no key and reads as the view's
 * fallback.
 */

/** The `{placeholders}` of the catalogue: the limits shared with the server. */
const LIMITS = {
  codeMin: CODE_MIN_LENGTH,
  codeMax: CODE_MAX_LENGTH,
  nameMax: MAX_NAME_LENGTH,
  passwordMax: MAX_PASSWORD_LENGTH,
} as const;

/** Keys that only name a status (or "some field is wrong"): a view says its own generic text instead. */
const GENERIC_KEYS: ReadonlySet<ErrorKey> = new Set<ErrorKey>([
  ...Object.values(STATUS_ERROR_KEYS),
  'validation_failed',
]);

/** Keys whose text names their field ('Die URL ist ungültig'): every key of the field table. */
const FIELD_KEYS: ReadonlySet<ErrorKey> = new Set<ErrorKey>(
  Object.values(SHORT_FIELDS).flatMap((f) => [f.invalidKey, ...f.errorKeys]),
);

/** A view's own texts for some keys (e.g. the admin's 'Der Eintrag existiert nicht.'). */
export type ViewErrors = Partial<Readonly<Record<ErrorKey, string>>>;

/** The catalogue's text of a key, placeholders filled. */
export function keyText(key: ErrorKey): string {
  return t(msg.errors[key], LIMITS);
}

const isShortField = (field: string): field is ShortFieldName => Object.hasOwn(SHORT_FIELDS, field);

/**
 * The key of a field's error: the server's `fieldErrorKeys`, else (a field of the short refused at
 * the API's boundary, which answers no key) the field's `invalidKey` from the field table.
 */
function fieldKey(err: ApiError, field: string): ErrorKey | undefined {
  return (
    err.fieldErrorKeys[field] ?? (isShortField(field) ? SHORT_FIELDS[field].invalidKey : undefined)
  );
}

/** The German text of one field's error: the key's text, named by the field where the text does not. */
function fieldKeyText(field: string, key: ErrorKey): string {
  if (FIELD_KEYS.has(key) || !isShortField(field)) return keyText(key);
  return t(msg.error.field, { field: msg.fields[field], text: keyText(key) });
}

/** When a refused call may be tried again, as German words ('in 42 Sekunden', 'um 14:05 Uhr'). */
export function retryWhen(seconds: number, now: Date = new Date()): string {
  const w = msg.error.retry;
  if (seconds <= 1) return w.oneSecond;
  if (seconds < 60) return t(w.seconds, { n: seconds });
  const minutes = Math.ceil(seconds / 60);
  if (minutes === 1) return w.oneMinute;
  if (minutes < 60) return t(w.minutes, { n: minutes });
  const at = new Date(now.getTime() + seconds * 1000);
  const time = at.toLocaleTimeString(locale(), { hour: '2-digit', minute: '2-digit' });
  if (at.toDateString() === now.toDateString()) return t(w.at, { time });
  const date = at.toLocaleDateString(locale(), { day: '2-digit', month: '2-digit' });
  return t(w.atDay, { date, time });
}

/** The text of a call refused by a rate limit (429 `rate_limited`), or undefined for any other failure. */
export function rateLimitText(err: unknown, now: Date = new Date()): string | undefined {
  if (!(err instanceof ApiError) || !err.rateLimited) return undefined;
  return err.retryAfter === undefined
    ? keyText('rate_limited')
    : t(msg.error.rateLimited, { when: retryWhen(err.retryAfter, now) });
}

/**
 * The German text of any failure, by `errorKey`, in this order: a rate limit with its time; the
 * view's own text for the key; the catalogue's text of a specific key; the first invalid field's
 * text (by its `fieldErrorKeys` key); the unavailable text for a 503; else `fallback`, the view's
 * generic text ('Link konnte nicht erstellt werden') — also for keys that only name a status.
 * Without a fallback, such a key reads as its catalogue text.
 */
export function errorText(err: unknown, fallback?: string, view: ViewErrors = {}): string {
  if (!(err instanceof ApiError)) return fallback ?? msg.error.unknown;
  const limited = rateLimitText(err);
  if (limited !== undefined) return limited;
  const key = err.errorKey;
  const own = key === undefined ? undefined : view[key];
  if (own !== undefined) return own;
  if (key !== undefined && !GENERIC_KEYS.has(key)) return keyText(key);
  for (const field of Object.keys(err.fieldErrors)) {
    const k = fieldKey(err, field);
    if (k !== undefined && !GENERIC_KEYS.has(k)) return fieldKeyText(field, k);
  }
  if (err.unavailable) return keyText('service_unavailable');
  if (fallback !== undefined) return fallback;
  return key !== undefined ? keyText(key) : msg.error.unknown;
}

/**
 * One German text per invalid field, for forms that show errors at their fields: by the field's
 * key; a field without one keeps the server's message (the admin's own checks answer no keys).
 */
export function fieldErrorTexts(err: unknown): Readonly<Record<string, string>> {
  if (!(err instanceof ApiError)) return {};
  return Object.fromEntries(
    Object.entries(err.fieldErrors).map(([field, message]) => {
      const key = fieldKey(err, field);
      return [field, key === undefined ? message : fieldKeyText(field, key)];
    }),
  );
}

/** The short (or entity) does not exist: 404, or the `entity_not_exists` key. */
export function isNotFound(err: unknown): boolean {
  return err instanceof ApiError && (err.errorKey === 'entity_not_exists' || err.status === 404);
}

/**
 * The load error of a table: 'Status {status}: {message}' with the German text of the answer's
 * key; an answer without one (not from this server: a proxy) with its detail or title
 * ('Unbekannter Fehler' without either); without an answer, the error's own message.
 */
export function loadErrorText(err: unknown): string {
  if (err instanceof ApiError) {
    const message =
      err.errorKey !== undefined
        ? keyText(err.errorKey)
        : (err.detail ?? err.title ?? msg.shorts.unknownError);
    return t(msg.shorts.loadErrorStatus, { status: err.status, message });
  }
  if (err instanceof Error && err.message.trim() !== '') return err.message;
  return msg.shorts.unknownError;
}

/** The errors of a short's form, at their fields. */
export type ShortFieldErrors = Partial<Readonly<Record<ShortFieldName, string>>>;

/**
 * A refused save of a short as German texts at its fields: the problem's `fieldErrors` (by their
 * `fieldErrorKeys`), and an `errorKey` that belongs to one field (`code_exists` → the code).
 */
export function shortFieldErrors(err: unknown): ShortFieldErrors {
  if (!(err instanceof ApiError)) return {};
  const out: Partial<Record<ShortFieldName, string>> = {};
  for (const [field, text] of Object.entries(fieldErrorTexts(err)))
    if (isShortField(field)) out[field] = text;
  const key = err.errorKey;
  if (key !== undefined && !GENERIC_KEYS.has(key)) {
    const owner = (Object.keys(SHORT_FIELDS) as ShortFieldName[]).find((f) =>
      (SHORT_FIELDS[f].errorKeys as readonly ErrorKey[]).includes(key),
    );
    if (owner !== undefined && out[owner] === undefined) out[owner] = keyText(key);
  }
  return out;
}
