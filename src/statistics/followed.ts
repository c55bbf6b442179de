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
  write(visits: readonly FollowedVisit[]): Promise<void>;
}

/** Visits kept for the sink at most (beyond, while its writes fail, the newest are not kept). */
export const FOLLOWED_MAX = 50_000;
