import { useSyncExternalStore } from 'react';

/** Bootstrap's md breakpoint: from here on the list is a table, below it cards. */
const MD = '(min-width: 768px)';

function subscribe(change: () => void) {
  if (typeof matchMedia !== 'function') return () => undefined;
  const q = matchMedia(MD);
  q.addEventListener('change', change);
  return () => q.removeEventListener('change', change);
}

/** Whether the window is at least `md` wide (no matchMedia: wide). */
export function useWide(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => typeof matchMedia !== 'function' || matchMedia(MD).matches,
    () => true,
  );
}
