import { BROKEN_AFTER_FAILURES, isFailureStatus } from '../shared/link-health';
import type { HealthRecord } from '../shorts/short-health';

/**
 * The outcome of one check of a target:
 * - `answered`: the target answered with `status` (after redirects); whether that is a failure is
 *   `isFailureStatus`'s decision;
 * - `no_answer`: a timeout, a refused or reset connection, a name that does not resolve, a
 *   redirect loop (a failure);
 * - `uncheckable`: this server may not connect to the target (an address or port the SSRF policy
 *   refuses, a URL it cannot request): neither a success nor a failure.
 */
export type CheckOutcome =
  { kind: 'answered'; status: number } | { kind: 'no_answer' } | { kind: 'uncheckable' };

/**
 * The state machine of link health: the record after a check at `now`. A success makes the short
 * `ok` (failures back to 0); a failure counts one more in a row, `broken` from the
 * BROKEN_AFTER_FAILURES-th on (before: `unknown`, with `failingSince` at the first failure); a
 * target that cannot be checked changes nothing but the status and the time of the check.
 */
export function nextHealth(prev: HealthRecord, outcome: CheckOutcome, now: Date): HealthRecord {
  if (outcome.kind === 'uncheckable') {
    return { ...prev, healthStatus: null, healthCheckedAt: now };
  }
  const status = outcome.kind === 'answered' ? outcome.status : null;
  if (status !== null && !isFailureStatus(status)) {
    return {
      healthState: 'ok',
      healthStatus: status,
      healthFailures: 0,
      healthCheckedAt: now,
      healthFailingSince: null,
    };
  }
  const failures = prev.healthFailures + 1;
  return {
    healthState: failures >= BROKEN_AFTER_FAILURES ? 'broken' : 'unknown',
    healthStatus: status,
    healthFailures: failures,
    healthCheckedAt: now,
    healthFailingSince: prev.healthFailingSince ?? now,
  };
}
