import type { HealthState } from '../shared/link-health';

/*
 * The link-health columns of a short as the shorts module keeps and shows them; the checks that
 * write them live in src/link-health/.
 */

/** What the health columns of a short hold (ShortEntity's `health*` properties). */
export interface HealthRecord {
  healthState: HealthState | null;
  healthStatus: number | null;
  healthFailures: number;
  healthCheckedAt: Date | null;
  healthFailingSince: Date | null;
}

/** The health before any check. */
export const UNCHECKED: HealthRecord = {
  healthState: null,
  healthStatus: null,
  healthFailures: 0,
  healthCheckedAt: null,
  healthFailingSince: null,
};

/** The health as the API shows it (ShortHealthDto). */
export function healthView(r: HealthRecord): {
  state: HealthState;
  status: number | null;
  checkedAt: string | null;
  failingSince: string | null;
} {
  return {
    state: r.healthState ?? 'unknown',
    status: r.healthStatus,
    checkedAt: r.healthCheckedAt ? r.healthCheckedAt.toISOString() : null,
    failingSince: r.healthFailingSince ? r.healthFailingSince.toISOString() : null,
  };
}
