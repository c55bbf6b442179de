/**
 * What the shorts module tells others, without knowing them: events on the cache bus (every
 * instance hears them, through Redis when configured) and the ports other modules plug into.
 */

/** A short's follow key (`followKey`) after any change to it (the follow cache drops it). */
export const SHORT_CHANGED_CHANNEL = 'short-invalidate';

/**
 * The key of a short in the follow cache and on the bus: its code on this service's host, and
 * `{domain}/{code}` on an own domain (no code or host holds a `/`).
 */
export function followKey(domain: string, code: string): string {
  return domain ? `${domain}/${code}` : code;
}

/**
 * The `short_tags` spaces (`u:{ownerId}`, `t:{teamId}`) whose tag rows a write changed, comma-separated
 * (the own list's tag counts of those spaces are dropped: TagCountCache).
 */
export const TAG_SPACES_CHANGED_CHANNEL = 'tag-spaces-changed';

/** The ids of deleted shorts, comma-separated (the statistics drop what they buffered for them). */
export const SHORTS_DELETED_CHANNEL = 'shorts-deleted';

/**
 * Where the own list's visits come from: the statistics module registers itself
 * (`ShortViewService.useVisits`), so this module never reads the statistics' tables.
 */
export interface ShortVisitsSource {
  /** Visits per short id (shorts without any may be absent). */
  visitsOf(ids: readonly string[]): Promise<Map<string, number>>;
  /**
   * An SQL expression of a short's visits (the same sums as visitsOf), given the alias of the shorts
   * table: the own list's sort by visits, and its page's visits read with its rows.
   */
  orderExpression(alias: string): string;
}

export type ShortChangeType =
  'short.created' | 'short.updated' | 'short.deleted' | 'short.health_changed';

/** What a short's change tells the webhooks: its identity and space. */
export interface ShortChange {
  id: string;
  code: string;
  domain: string;
  ownerId: string | null;
  teamId: string | null;
}

/**
 * Where a short's creates, edits and deletes are reported (the webhooks' outbox registers itself:
 * `ShortChangeHub.use`). A create, edit or delete is held before it is written (`hold`: the event
 * is in the outbox, not sent, before the change exists), then released with its payload or dropped
 * when the write failed; what a stopped process left held is decided later from the database
 * (`ShortChangeHub.decideHeld`). `changed` reports a change at once (link health); `view` gives
 * the short as the API answers it, read only when a webhook wants it.
 */
export interface ShortChangeSink {
  changed(type: ShortChangeType, short: ShortChange, view: () => Promise<unknown>): Promise<void>;
  /** Each short's held event id (shorts no webhook wants are absent). */
  hold(type: ShortChangeType, shorts: readonly ShortChange[]): Promise<Map<string, string>>;
  release(eventId: string, data: unknown): Promise<boolean>;
  drop(eventIds: readonly string[]): Promise<void>;
}
