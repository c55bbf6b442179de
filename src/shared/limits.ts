import { CLIENT_ROUTE_ROOTS } from './client-routes';

/**
 * The numbers and patterns of a short that the server enforces and the web client shows, written
 * once (see README.md in this folder).
 */

/** Largest value of a signed 32-bit INT column (`max_uses`, `uses`). */
export const INT_MAX = 2_147_483_647;

/** A target URL: at most this many characters (the column). */
export const MAX_URL_LENGTH = 2048;
/** A name: at most this many characters (after trimming). */
export const MAX_NAME_LENGTH = 100;
/** A password: at most this many characters. */
export const MAX_PASSWORD_LENGTH = 128;

/** A custom code: 3 to 64 of A–Z, a–z, 0–9, `_` and `-`, case-sensitive. */
export const CODE_MIN_LENGTH = 3;
export const CODE_MAX_LENGTH = 64;
export const CUSTOM_CODE_PATTERN = /^[A-Za-z0-9_-]{3,64}$/;

/**
 * Words that shadow routes of the service; refused as custom codes (case-insensitive), and never
 * followed as `/{code}` (follow-path.ts). Every first segment of the web client's routes
 * (client-routes.ts, the table App.tsx renders) is one, plus the server's own paths and words
 * kept for pages and files.
 */
export const RESERVED_CODES: ReadonlySet<string> = new Set([
  ...CLIENT_ROUTE_ROOTS,
  'api',
  's',
  'login',
  'logout',
  'admin',
  'account',
  'shorts',
  'service',
  'management',
  'assets',
  'static',
  'docs',
  'swagger',
  'health',
  'auth',
  'web',
  'public',
  'info',
  'delete',
  'not-found',
  'notfound',
  'password-required',
  'passwordrequired',
  'potentially-dangerous',
  'potentiallydangerous',
  'offline',
  'index',
  'favicon',
  'robots',
  'sitemap',
  'metadata',
  'report',
  'reports',
  'export',
  'import',
  'qr',
  'statistics',
  // link pages: /p/{slug}
  'p',
]);

export function isReservedCode(code: string): boolean {
  return RESERVED_CODES.has(code.toLowerCase());
}

/** Anonymous shorts live this long. */
export const ANONYMOUS_LIFETIME_MS = 24 * 60 * 60 * 1000;

/** An import: at most this many rows, columns, bytes per record and bytes in all. */
export const MAX_IMPORT_ROWS = 5000;
export const MAX_IMPORT_COLUMNS = 50;
export const MAX_IMPORT_RECORD = 64 * 1024;
export const MAX_IMPORT_BYTES = 2 * 1024 * 1024;
