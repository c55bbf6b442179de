/** Baseline headers every answer carries, the follow fast path's redirects included. */
export const SECURITY_HEADERS: ReadonlyArray<[string, string]> = [
  ['X-Content-Type-Options', 'nosniff'],
  ['X-Frame-Options', 'DENY'],
];

/** Headers every answer of the API carries: the baseline and a referrer policy. */
export const API_HEADERS: ReadonlyArray<[string, string]> = [
  ...SECURITY_HEADERS,
  ['Referrer-Policy', 'strict-origin-when-cross-origin'],
];
