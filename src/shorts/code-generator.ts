import { randomBytes } from 'node:crypto';

/** No look-alikes: no 0/O/o, 1/l/I. 56 characters. */
export const CODE_ALPHABET = '23456789abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ';
export const GENERATED_CODE_LENGTH = 7;
export const CUSTOM_CODE_PATTERN = /^[A-Za-z0-9_-]{3,64}$/;

/** Words that shadow routes of the service; refused as custom codes (case-insensitive). */
export const RESERVED_CODES = new Set([
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
]);

/** Unbiased 7-character code from crypto randomness (rejection sampling). */
export function generateCode(length = GENERATED_CODE_LENGTH): string {
  const n = CODE_ALPHABET.length;
  const limit = 256 - (256 % n);
  let out = '';
  while (out.length < length) {
    for (const b of randomBytes(length * 2)) {
      if (b < limit) out += CODE_ALPHABET[b % n];
      if (out.length === length) break;
    }
  }
  return out;
}

export function isReservedCode(code: string): boolean {
  return RESERVED_CODES.has(code.toLowerCase());
}
