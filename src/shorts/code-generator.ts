import { randomBytes } from 'node:crypto';

/** No look-alikes: no 0/O/o, 1/l/I. 56 characters. */
export const CODE_ALPHABET = '23456789abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ';
export const GENERATED_CODE_LENGTH = 7;

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
