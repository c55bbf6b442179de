import { Logger } from '@nestjs/common';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AppConfig } from '../config/config';
import { generateApiKey, hashApiKey } from './apikey.crypto';
import { ApiKeyService, parseScopes } from './apikey.service';

/** A key row as the authentication statement returns it. */
const row = (over: Record<string, unknown> = {}) => ({
  key_id: 'k1',
  scopes: 'shorts:read,shorts:write',
  team_id: null,
  expires_at: null,
  team_role: null,
  id: 'u1',
  username: 'alice',
  roles: 'ROLE_USER',
  activated: 1,
  ...over,
});

function service(rows: () => unknown[], update: () => Promise<unknown>) {
  /** The `last_used_at` update: `write` counts the statements sent, `andWhere` their condition. */
  const builder = {
    update: () => builder,
    set: () => builder,
    where: () => builder,
    andWhere: vi.fn((_condition: string, _params: Record<string, unknown>) => builder),
    execute: vi.fn(update),
  };
  const repo = {
    manager: {
      connection: { options: { type: 'better-sqlite3' } },
      query: vi.fn(async () => rows()),
    },
    createQueryBuilder: () => builder,
    write: builder.execute,
    andWhere: builder.andWhere,
  };
  const svc = new ApiKeyService(
    repo as never,
    { appSecret: 'x'.repeat(40) } as AppConfig,
    {} as never,
    {} as never,
  );
  return { svc, repo };
}

describe('ApiKeyService', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it('parses stored scopes, dropping unknown ones', () => {
    expect(parseScopes('shorts:read, domains:write,admin,')).toEqual([
      'shorts:read',
      'domains:write',
    ]);
  });

  it('refuses a malformed key without asking the database', async () => {
    const { svc, repo } = service(
      () => [row()],
      async () => ({}),
    );
    expect(await svc.authenticate('us_short')).toBeNull();
    expect(repo.manager.query).not.toHaveBeenCalled();
  });

  it('an expired key, or a team key without a membership, is no key', async () => {
    const key = generateApiKey();
    let r = row({ expires_at: new Date(Date.now() - 1) });
    const { svc, repo } = service(
      () => [r],
      async () => ({}),
    );
    expect(await svc.authenticate(key)).toBeNull();
    expect(repo.manager.query).toHaveBeenCalledWith(expect.any(String), [hashApiKey(key)]);
    r = row({ team_id: 't1', team_role: null });
    expect(await svc.authenticate(key)).toBeNull();
    r = row({ expires_at: '2999-01-01 00:00:00.000' });
    expect(await svc.authenticate(key)).not.toBeNull();
  });

  it('a viewer’s team key keeps its read scopes only', async () => {
    const { svc } = service(
      () => [row({ team_id: 't1', team_role: 'viewer', scopes: 'shorts:read,shorts:write' })],
      async () => ({}),
    );
    const found = await svc.authenticate(generateApiKey());
    expect(found?.grant).toEqual({
      id: 'k1',
      scopes: ['shorts:read'],
      teamId: 't1',
      teamRole: 'viewer',
    });
    expect(found?.user).toEqual({
      id: 'u1',
      username: 'alice',
      roles: 'ROLE_USER',
      activated: true,
    });
  });

  it('writes lastUsedAt at most once a minute per key, without waiting for it', async () => {
    vi.useFakeTimers({ now: Date.UTC(2026, 0, 1), toFake: ['Date'] });
    let pending = 0;
    const { svc, repo } = service(
      () => [row()],
      () => {
        pending++;
        return new Promise(() => undefined); // never settles: the request must not wait
      },
    );
    const key = generateApiKey();
    for (let i = 0; i < 10; i++) expect(await svc.authenticate(key)).not.toBeNull();
    expect(repo.write).toHaveBeenCalledTimes(1);
    // only a row not written within the minute changes (another instance may have written it)
    expect(repo.andWhere).toHaveBeenCalledWith('(last_used_at IS NULL OR last_used_at < :cutoff)', {
      cutoff: new Date(Date.now() - 60_000),
    });
    vi.setSystemTime(Date.now() + 59_000);
    await svc.authenticate(key);
    expect(repo.write).toHaveBeenCalledTimes(1);
    vi.setSystemTime(Date.now() + 2_000);
    await svc.authenticate(key);
    expect(repo.write).toHaveBeenCalledTimes(2);
    expect(pending).toBe(2);
  });

  it('a failing write is logged at most once a minute', async () => {
    vi.useFakeTimers({ now: Date.UTC(2026, 0, 1), toFake: ['Date'] });
    const warn = vi.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    let keyId = 0;
    const { svc, repo } = service(
      () => [row({ key_id: `k${++keyId}` })],
      async () => {
        throw new Error('database away');
      },
    );
    for (let i = 0; i < 20; i++) await svc.authenticate(generateApiKey());
    await new Promise((resolve) => setImmediate(resolve));
    expect(repo.write).toHaveBeenCalledTimes(20);
    expect(warn).toHaveBeenCalledTimes(1);
    vi.setSystemTime(Date.now() + 61_000);
    await svc.authenticate(generateApiKey());
    await new Promise((resolve) => setImmediate(resolve));
    expect(warn).toHaveBeenCalledTimes(2);
  });
});
