import type { Short } from '../api/client';

/** A state of a short worth seeing in the own list at a glance. */
export type ShortBadge = 'expired' | 'usedUp' | 'broken' | 'password' | 'dangerous';

/** In list order: what stops the short from working first, then what changes how it works. */
export const SHORT_BADGES: readonly ShortBadge[] = [
  'expired',
  'usedUp',
  'broken',
  'password',
  'dangerous',
];

/**
 * The badges of one short: `expired` when its expiry lies in the past, `usedUp` when its uses
 * reached the limit (uses >= maxUses), `broken` when its link health says the target is broken
 * (owners see it), `password` when it asks for one, `dangerous` when it was reported or flagged
 * (`dangers`).
 */
export function shortBadges(
  s: Pick<Short, 'expireAt' | 'maxUses' | 'uses' | 'hasPassword' | 'dangers'> &
    Partial<Pick<Short, 'health'>>,
  now: Date = new Date(),
): ShortBadge[] {
  const on: Record<ShortBadge, boolean> = {
    expired: s.expireAt !== null && new Date(s.expireAt).getTime() <= now.getTime(),
    usedUp: s.maxUses !== null && (s.uses ?? 0) >= s.maxUses,
    broken: s.health?.state === 'broken',
    password: s.hasPassword,
    dangerous: s.dangers,
  };
  return SHORT_BADGES.filter((b) => on[b]);
}
