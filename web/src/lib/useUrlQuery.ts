import { useLocation, useSearch } from 'wouter';

/** The page's query string, and a setter that changes some keys in place (null removes a key). */
export function useUrlQuery(): [URLSearchParams, (change: Record<string, string | null>) => void] {
  const search = useSearch();
  const [location, navigate] = useLocation();
  const params = new URLSearchParams(search);
  const set = (change: Record<string, string | null>) => {
    const next = new URLSearchParams(search);
    for (const [k, v] of Object.entries(change)) {
      if (v === null) next.delete(k);
      else next.set(k, v);
    }
    const q = next.toString();
    navigate(`${location}${q ? `?${q}` : ''}`, { replace: true });
  };
  return [params, set];
}
