import { de } from '../i18n/de';

/** An error body from the API: problem+json `{detail, errorKey, status, …}`, or anything else. */
export interface ApiErrorLike {
  detail?: unknown;
  errorKey?: unknown;
  status?: unknown;
  title?: unknown;
}

export function errorDetail(err: unknown): string | undefined {
  if (err && typeof err === 'object' && typeof (err as ApiErrorLike).detail === 'string') {
    return (err as ApiErrorLike).detail as string;
  }
  return undefined;
}

/** SPEC §8: create errors by `detail`. */
export function createErrorMessage(err: unknown): string {
  const detail = errorDetail(err);
  return (detail && de.create.errors[detail]) || de.create.errorOther;
}

/** SPEC §8: report errors by `detail`. */
export function reportErrorMessage(err: unknown): string {
  const detail = errorDetail(err);
  return (detail && de.report.errors[detail]) || de.report.errorOther;
}

export function isNotFound(err: unknown): boolean {
  if (!err || typeof err !== 'object') return false;
  const e = err as ApiErrorLike;
  return e.errorKey === 'entity_not_exists' || e.status === 404;
}
