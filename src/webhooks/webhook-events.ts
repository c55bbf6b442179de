/** The event types a webhook may receive (CONTRACT "Webhooks"). */
export const WEBHOOK_EVENTS = [
  'short.created',
  'short.updated',
  'short.deleted',
  'short.followed',
  'short.health_changed',
  'domain.verified',
  'domain.failed',
  'webhook.test',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENTS)[number];

/** At most this many webhooks per user (own space) or team. */
export const LIMIT_WEBHOOKS = 10;

/**
 * The waits after each failed attempt (about 5 s, 5 min, 30 min, 2 h, 5 h, 10 h); after the last
 * one fails the delivery is `failed`.
 */
export const RETRY_DELAYS_MS = [
  5_000,
  5 * 60_000,
  30 * 60_000,
  2 * 3_600_000,
  5 * 3_600_000,
  10 * 3_600_000,
];

/** A webhook whose deliveries have failed this long is disabled. */
export const DISABLE_AFTER_MS = 3 * 24 * 3_600_000;

/** Deliveries are kept this long. */
export const DELIVERY_RETENTION_MS = 7 * 24 * 3_600_000;

/** The space an event belongs to: a user's own, or a team's. */
export interface EventSpace {
  ownerId: string | null;
  teamId: string | null;
}
