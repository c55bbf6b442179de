// The app's event-loop delay over a round, from its Prometheus histogram: bench/run.mjs and
// bench/statistics-read.mjs read it the same way.

/**
 * A reader of the apps' event-loop delay (`token`: the apps' METRICS_TOKEN). Each call returns the
 * delay since the previous call for that app, in ms: the p99 (linear within the bucket where it
 * falls) and the bound of the slowest bucket; NaN for both when no delay was recorded.
 */
export function loopDelayReader(token) {
  /** The histogram's bucket counts at the last call, per app (a round's delays are the change). */
  const loopBuckets = new Map();
  return async function loopDelay(base) {
    const r = await fetch(`${base}/management/prometheus`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const text = await r.text();
    const now = [
      ...text.matchAll(/^url_shorter_event_loop_delay_seconds_bucket\{le="([^"]+)"\} (\S+)$/gm),
    ].map((m) => ({ le: m[1] === '+Inf' ? Infinity : Number(m[1]), count: Number(m[2]) }));
    const before = loopBuckets.get(base) ?? now.map((b) => ({ ...b, count: 0 }));
    loopBuckets.set(base, now);
    const delta = now.map((b, i) => ({ le: b.le, count: b.count - (before[i]?.count ?? 0) }));
    const total = delta.at(-1)?.count ?? 0;
    if (!total) return { p99: NaN, max: NaN };
    let p99 = NaN;
    for (let i = 0; i < delta.length; i++) {
      if (delta[i].count < 0.99 * total) continue;
      const lo = i ? delta[i - 1].le : 0;
      const below = i ? delta[i - 1].count : 0;
      const hi = Number.isFinite(delta[i].le) ? delta[i].le : lo;
      p99 = lo + ((hi - lo) * (0.99 * total - below)) / Math.max(1, delta[i].count - below);
      break;
    }
    const slowest = delta.find((b) => b.count === total)?.le ?? Infinity;
    return { p99: 1000 * p99, max: 1000 * slowest };
  };
}
