/**
 * A pure function's answer for `key`, kept in `kept` for the keys seen lately: at most `max`
 * keys, then all are dropped at once (no order to keep up per call). For small, hot sets of keys
 * on the request path (user agents, referrers, Host headers).
 */
export function keptAnswer<V>(
  kept: Map<string, V>,
  max: number,
  key: string,
  answer: (key: string) => V,
): V {
  let v = kept.get(key);
  if (v === undefined) {
    if (kept.size >= max) kept.clear();
    v = answer(key);
    kept.set(key, v);
  }
  return v;
}
