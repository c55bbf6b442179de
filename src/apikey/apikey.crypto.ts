import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';

/** Recognisable prefix of every key (secret scanners and people can tell what it is). */
export const API_KEY_PREFIX = 'us_';
/** us_ + 43 base64url characters (256 random bits). */
export const API_KEY_PATTERN = /^us_[A-Za-z0-9_-]{43}$/;

export function generateApiKey(): string {
  return API_KEY_PREFIX + randomBytes(32).toString('base64url');
}

/** SHA-256 (hex) used to look a presented key up. */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** AES-256-GCM key derived from APP_SECRET with HKDF-SHA256. */
export function deriveEncryptionKey(appSecret: string): Buffer {
  return Buffer.from(hkdfSync('sha256', appSecret, 'url-shorter', 'api-key-encryption-v1', 32));
}

/** `v1.{iv}.{tag}.{ciphertext}` (base64url), bound to the owner's id as associated data. */
export function encryptApiKey(encKey: Buffer, key: string, userId: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', encKey, iv);
  cipher.setAAD(Buffer.from(userId, 'utf8'));
  const ct = Buffer.concat([cipher.update(key, 'utf8'), cipher.final()]);
  return [
    'v1',
    iv.toString('base64url'),
    cipher.getAuthTag().toString('base64url'),
    ct.toString('base64url'),
  ].join('.');
}

export function decryptApiKey(encKey: Buffer, stored: string, userId: string): string {
  const [v, iv, tag, ct] = stored.split('.');
  if (v !== 'v1' || !iv || !tag || !ct) throw new Error('Unknown API key format');
  const decipher = createDecipheriv('aes-256-gcm', encKey, Buffer.from(iv, 'base64url'));
  decipher.setAAD(Buffer.from(userId, 'utf8'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(ct, 'base64url')), decipher.final()]).toString(
    'utf8',
  );
}

/** The cipher of stored keys, its AES key derived from APP_SECRET once (see encryptApiKey). */
export class ApiKeyCipher {
  private readonly encKey: Buffer;

  constructor(appSecret: string) {
    this.encKey = deriveEncryptionKey(appSecret);
  }

  encrypt(key: string, userId: string): string {
    return encryptApiKey(this.encKey, key, userId);
  }

  decrypt(stored: string, userId: string): string {
    return decryptApiKey(this.encKey, stored, userId);
  }
}
