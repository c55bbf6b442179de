import { randomFillSync } from 'node:crypto';

/** No look-alikes: no 0/O/o, 1/l/I. 56 characters. */
export const CODE_ALPHABET = '23456789abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ';
export const GENERATED_CODE_LENGTH = 7;

/** Unbiased 7-character code from crypto randomness (rejection sampling). */
export function generateCode(length = GENERATED_CODE_LENGTH): string {
  const n = CODE_ALPHABET.length;
  const limit = 256 - (256 % n);
  let out = '';
  while (out.length < length) {
    const b = randomByte();
    if (b < limit) out += CODE_ALPHABET[b % n];
  }
  return out;
}

/** Random bytes drawn 4 KiB at a time (one call into the CSPRNG per about 500 codes). */
const pool = Buffer.alloc(4096);
let next = pool.length;
function randomByte(): number {
  if (next === pool.length) {
    randomFillSync(pool);
    next = 0;
  }
  return pool[next++];
}
