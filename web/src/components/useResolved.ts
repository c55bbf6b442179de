import { useEffect, useState, type DependencyList } from 'react';

/**
 * The value a promise resolves to, loaded again whenever `deps` change: an answer that comes after
 * the deps changed again (or the component left) is dropped, so a slow old answer never overwrites
 * a newer one. `initial` until the first answer; `load` returning undefined loads nothing (the value
 * stays); a failed load keeps the value as well.
 */
export function useResolved<T>(
  load: () => Promise<T> | undefined,
  deps: DependencyList,
  initial: T | (() => T),
): T {
  const [value, setValue] = useState(initial);
  useEffect(() => {
    const pending = load();
    if (!pending) return;
    let cancelled = false;
    pending.then(
      (v) => {
        if (!cancelled) setValue(() => v);
      },
      () => undefined,
    );
    return () => {
      cancelled = true;
    };
    // The caller names what the load depends on (like useEffect's own list).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, deps);
  return value;
}
