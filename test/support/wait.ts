/**
 * Bounded waits for e2e tests (after immich's e2e `utils.ts`): wait for a condition instead of
 * sleeping a fixed time, and fail with a message that says what did not happen.
 *
 *   await waitFor(() => follow.pendingUses() === 0, { message: 'uses flushed' });
 *   const row = await waitFor(async () => (await t.query('SELECT …'))[0], { timeoutMs: 5_000 });
 *
 * A fixed sleep stays only where a test lets time pass on purpose (an expiry, a steady load, a
 * window in which nothing may happen); such a sleep is `pause(ms)` with a comment saying why.
 */

export interface WaitOptions {
  /** How long to wait at the most (default 10 s). */
  timeoutMs?: number;
  /** How long between two tries (default 50 ms). */
  intervalMs?: number;
  /** What is waited for, for the error when it does not happen (a function: read at that time). */
  message?: string | (() => string);
}

/** Lets `ms` of time pass (for waits that are the point of the test, not for a condition). */
export const pause = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/**
 * Calls `predicate` until it returns a truthy value (which is returned), at most `timeoutMs`;
 * then throws, naming `message`, the time waited and the last value or error seen.
 */
export async function waitFor<T>(
  predicate: () => T | Promise<T>,
  { timeoutMs = 10_000, intervalMs = 50, message = 'condition' }: WaitOptions = {},
): Promise<NonNullable<T>> {
  const start = Date.now();
  let last: unknown;
  for (;;) {
    try {
      const value = await predicate();
      if (value) return value as NonNullable<T>;
      last = value;
    } catch (err) {
      last = err;
    }
    const waited = Date.now() - start;
    if (waited >= timeoutMs) {
      const seen = last instanceof Error ? `error ${last.message}` : JSON.stringify(last);
      const what = typeof message === 'function' ? message() : message;
      throw new Error(`waitFor: ${what} did not happen within ${timeoutMs} ms (last: ${seen})`);
    }
    await pause(Math.min(intervalMs, timeoutMs - waited));
  }
}

/** Waits until a server answers `url` at all (any status): a process that has just been spawned. */
export async function waitForHttp(url: string, timeoutMs = 30_000): Promise<void> {
  await waitFor(
    () =>
      fetch(url, { redirect: 'manual' }).then(
        () => true,
        () => false,
      ),
    { timeoutMs, intervalMs: 200, message: `an answer of the server at ${url}` },
  );
}
