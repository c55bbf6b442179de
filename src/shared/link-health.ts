/**
 * Link health of logged-in shorts, as server and web client both read it (CONTRACT "Redirect
 * rules, expiry fallback and link health").
 *
 * - `ok`: the last check got an answer that does not count as a failure;
 * - `unknown`: never checked yet, or failing fewer than BROKEN_AFTER_FAILURES times in a row
 *   (`failingSince` then says since when), or the target could not be checked (an address this
 *   server may not connect to);
 * - `broken`: BROKEN_AFTER_FAILURES failed checks in a row; the next successful check makes it `ok`.
 */
export const HEALTH_STATES = ['ok', 'broken', 'unknown'] as const;
export type HealthState = (typeof HEALTH_STATES)[number];

/** Failed checks in a row after which a short is `broken`. */
export const BROKEN_AFTER_FAILURES = 3;

/** The own list's filter (`GET /api/code?health=broken`). */
export const HEALTH_FILTERS = ['broken'] as const;
export type HealthFilter = (typeof HEALTH_FILTERS)[number];

/**
 * Whether an HTTP status of a check counts as a failure: any 4xx or 5xx except 401, 403 and 429
 * (the target is there; it wants a login, refuses robots or limits them).
 */
export function isFailureStatus(status: number): boolean {
  return status >= 400 && status !== 401 && status !== 403 && status !== 429;
}
