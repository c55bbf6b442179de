export const OFFLINE_SECONDS = 30;
export const RESTORE_KEY = 'restore';

/** Remembers where the visitor was (restore address), then shows the offline page. */
export function goOffline(navigate: (to: string) => void): void {
  const here = location.pathname + location.search;
  if (!here.startsWith('/service/offline')) sessionStorage.setItem(RESTORE_KEY, here);
  navigate('/service/offline');
}
