import { Inject, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import type { Repository } from 'typeorm';
import { NotFoundError } from '../common/errors';
import { APP_CONFIG, appSecretOf, type AppConfig } from '../config/config';
import { isUniqueViolation } from '../database/errors';
import {
  API_KEY_PATTERN,
  decryptApiKey,
  deriveEncryptionKey,
  encryptApiKey,
  generateApiKey,
  hashApiKey,
} from './apikey.crypto';
import { ApiKeyEntity } from './apikey.entity';

/** One API key per user: stored as a SHA-256 hash (lookup) and an AES-256-GCM copy (reveal). */
@Injectable()
export class ApiKeyService {
  private readonly encKey: Buffer;

  constructor(
    @InjectRepository(ApiKeyEntity) private readonly repo: Repository<ApiKeyEntity>,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.encKey = deriveEncryptionKey(appSecretOf(config));
  }

  /** The caller's key in clear, or 404. */
  async reveal(userId: string): Promise<string> {
    const row = await this.repo.findOne({ where: { userId } });
    if (!row) throw new NotFoundError('No API key yet', 'api_key_missing');
    return decryptApiKey(this.encKey, row.keyEncrypted, userId);
  }

  /** Creates the caller's key, or replaces it (the old one stops working at once). */
  async renew(userId: string): Promise<string> {
    const key = generateApiKey();
    const patch = {
      keyHash: hashApiKey(key),
      keyEncrypted: encryptApiKey(this.encKey, key, userId),
      createdAt: new Date(),
    };
    for (let attempt = 0; attempt < 3; attempt++) {
      const res = await this.repo.update({ userId }, patch);
      if ((res.affected ?? 0) > 0) return key;
      try {
        await this.repo.insert({ id: randomUUID(), userId, ...patch });
        return key;
      } catch (err) {
        if (!isUniqueViolation(err)) throw err; // a parallel first PUT: update that row instead
      }
    }
    throw new Error('Could not store the API key');
  }

  /** The id of the key's user, or null for an unknown key (the auth pipeline resolves the user). */
  async userIdFor(key: string): Promise<string | null> {
    if (!API_KEY_PATTERN.test(key)) return null;
    const row = await this.repo.findOne({
      where: { keyHash: hashApiKey(key) },
      select: { userId: true },
    });
    return row?.userId ?? null;
  }

  /** Revokes a key by its record id (admins); false when there is none. */
  async revoke(id: string): Promise<boolean> {
    const res = await this.repo.delete({ id });
    return (res.affected ?? 0) > 0;
  }
}
