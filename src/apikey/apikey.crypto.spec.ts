import { describe, expect, it } from 'vitest';
import {
  API_KEY_PATTERN,
  ApiKeyCipher,
  decryptApiKey,
  deriveEncryptionKey,
  encryptApiKey,
  generateApiKey,
  hashApiKey,
} from './apikey.crypto';

describe('API key crypto', () => {
  const enc = deriveEncryptionKey('x'.repeat(40));

  it('keys are us_ + 256 random bits, all different', () => {
    const keys = new Set(Array.from({ length: 100 }, generateApiKey));
    expect(keys.size).toBe(100);
    for (const k of keys) expect(k).toMatch(API_KEY_PATTERN);
  });

  it('encrypts and decrypts; the stored form contains no clear key', () => {
    const key = generateApiKey();
    const stored = encryptApiKey(enc, key, 'user-1');
    expect(stored).not.toContain(key.slice(3));
    expect(decryptApiKey(enc, stored, 'user-1')).toBe(key);
    expect(encryptApiKey(enc, key, 'user-1')).not.toBe(stored); // random IV
  });

  it('refuses another user id, another secret, or a tampered copy', () => {
    const key = generateApiKey();
    const stored = encryptApiKey(enc, key, 'user-1');
    expect(() => decryptApiKey(enc, stored, 'user-2')).toThrow();
    expect(() => decryptApiKey(deriveEncryptionKey('y'.repeat(40)), stored, 'user-1')).toThrow();
    const parts = stored.split('.');
    parts[3] = (parts[3][0] === 'A' ? 'B' : 'A') + parts[3].slice(1);
    expect(() => decryptApiKey(enc, parts.join('.'), 'user-1')).toThrow();
  });

  it('hashes with SHA-256 (hex)', () => {
    expect(hashApiKey('us_x')).toMatch(/^[0-9a-f]{64}$/);
  });

  it('the cipher object encrypts with the key derived from the secret', () => {
    const key = generateApiKey();
    const cipher = new ApiKeyCipher('x'.repeat(40));
    const stored = cipher.encrypt(key, 'user-1');
    expect(decryptApiKey(enc, stored, 'user-1')).toBe(key);
    expect(cipher.decrypt(encryptApiKey(enc, key, 'user-1'), 'user-1')).toBe(key);
    expect(() => cipher.decrypt(stored, 'user-2')).toThrow();
  });
});
