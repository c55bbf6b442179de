/**
 * A human visit as the webhooks' `short.followed` event tells it (CONTRACT "Webhooks"): the
 * statistics' aggregates of one follow, never an address or a user agent.
 */
export interface FollowedVisit {
  shortId: string;
  /** When (ms since the epoch). */
  at: number;
  /** `default` or the redirect rule's number. */
  target: string;
  country: string;
  device: string;
  os: string;
  browser: string;
  referrerHost: string;
}

/**
 * Where the recorder hands the human visits over, with each statistics batch (the webhooks'
 * outbox registers itself: StatisticsRecorder.useFollowedSink). `wanted` is asked on the follow
 * path: in-memory and cheap; `write` is awaited by the flush (a failure keeps the visits for the
 * next one).
 */
export interface FollowedSink {
  wanted(): boolean;
  /**
   * The most visits of one short that one batch can send (a webhook's burst): the recorder keeps
   * no more of a short per batch, as every visit of a short goes to the same webhooks.
   */
  readonly perShort: number;
  write(visits: readonly FollowedVisit[]): Promise<void>;
}

/**
 * Visits kept for the sink per batch at most (beyond, and while its writes fail, the newest are
 * not kept): the webhooks send at most 20 a second per webhook anyway (FOLLOWED_PER_SECOND), and
 * a batch of 50,000 held the event loop for tens of milliseconds.
 */
export const FOLLOWED_MAX = 10_000;
