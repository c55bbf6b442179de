import { Inject, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import type { Repository } from 'typeorm';
import { NotFoundError } from '../common/errors';
import { APP_CONFIG, appSecretOf, type AppConfig } from '../config/config';
import { booleanTransformer } from '../database/columns';
import { dialectSql, engineOf } from '../database/dialect';
import { isUniqueViolation } from '../database/errors';
import { API_KEY_PATTERN, ApiKeyCipher, generateApiKey, hashApiKey } from './apikey.crypto';
import { ApiKeyEntity } from './apikey.entity';

/**
 * The user of a key, as the auth pipeline needs it (account's `toActor`): the columns of `users`
 * the key's lookup joins (apikey/ sits below account/ and does not import its entity).
 */
export interface KeyUser {
  id: string;
  username: string;
  roles: string;
  activated: boolean;
}

/** One API key per user: stored as a SHA-256 hash (lookup) and an AES-256-GCM copy (reveal). */
@Injectable()
export class ApiKeyService {
  private readonly cipher: ApiKeyCipher;
  private readonly userSql: string;

  constructor(
    @InjectRepository(ApiKeyEntity) private readonly repo: Repository<ApiKeyEntity>,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.cipher = new ApiKeyCipher(appSecretOf(config));
    this.userSql = dialectSql(
      engineOf(repo.manager.connection),
      'SELECT u.id, u.username, u.roles, u.activated FROM api_keys k JOIN users u ON u.id = k.user_id WHERE k.key_hash = ?',
    );
  }

  /** The caller's key in clear, or 404. */
  async reveal(userId: string): Promise<string> {
    const row = await this.repo.findOne({ where: { userId } });
    if (!row) throw new NotFoundError('No API key yet', 'api_key_missing');
    return this.cipher.decrypt(row.keyEncrypted, userId);
  }

  /** Creates the caller's key, or replaces it (the old one stops working at once). */
  async renew(userId: string): Promise<string> {
    const key = generateApiKey();
    const patch = {
      keyHash: hashApiKey(key),
      keyEncrypted: this.cipher.encrypt(key, userId),
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

  /**
   * The key's user as the auth pipeline needs it (toActor), or null for an unknown key: one
   * statement joining the key and its user (a login per request with a key).
   */
  async userFor(key: string): Promise<KeyUser | null> {
    if (!API_KEY_PATTERN.test(key)) return null;
    const rows: Array<{ id: string; username: string; roles: string; activated: unknown }> =
      await this.repo.manager.query(this.userSql, [hashApiKey(key)]);
    const r = rows[0];
    if (!r) return null;
    return {
      id: r.id,
      username: r.username,
      roles: r.roles,
      activated: booleanTransformer.from(r.activated) as boolean,
    };
  }

  /** Revokes a key by its record id (admins); false when there is none. */
  async revoke(id: string): Promise<boolean> {
    const res = await this.repo.delete({ id });
    return (res.affected ?? 0) > 0;
  }
}
