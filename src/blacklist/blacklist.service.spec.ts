import { describe, expect, it } from 'vitest';
import type { Repository } from 'typeorm';
import type { CacheBus } from '../redis/cache-bus';
import type { BlacklistEntity } from './blacklist.entity';
import { BlacklistService } from './blacklist.service';

/** The service over a fake table of entries. */
async function blacklist(entries: Array<Pick<BlacklistEntity, 'kind' | 'value'>>) {
  const repo = {
    find: async () => entries.map((e, i) => ({ id: `id-${i}`, ...e })),
  } as unknown as Repository<BlacklistEntity>;
  const bus = { on: () => undefined, onResync: () => undefined } as unknown as CacheBus;
  const service = new BlacklistService(repo, bus);
  await service.reload();
  return service;
}

describe('BlacklistService.isBlacklisted', () => {
  it('matches a host entry on the host and its subdomains (normalised), nothing else', async () => {
    const b = await blacklist([{ kind: 'host', value: 'evil.example' }]);
    expect(b.isBlacklisted('https://evil.example/x')).toBe(true);
    expect(b.isBlacklisted('https://WWW.Evil.Example./x')).toBe(true);
    expect(b.isBlacklisted('https://user@a.b.evil.example:8443/x')).toBe(true);
    expect(b.isBlacklisted('https://notevil.example/x')).toBe(false);
    expect(b.isBlacklisted('https://example.com/?next=evil.example')).toBe(false);
  });

  it('matches patterns on the whole URL, with or without host entries', async () => {
    const patternsOnly = await blacklist([{ kind: 'regex', value: 'casino' }]);
    expect(patternsOnly.isBlacklisted('https://example.com/CASINO/win')).toBe(true);
    expect(patternsOnly.isBlacklisted('https://example.com/ok')).toBe(false);
    const both = await blacklist([
      { kind: 'host', value: 'evil.example' },
      { kind: 'regex', value: 'casino' },
    ]);
    expect(both.isBlacklisted('https://example.com/casino')).toBe(true);
    expect(both.isBlacklisted('https://evil.example/')).toBe(true);
    expect(both.isBlacklisted('https://example.com/ok')).toBe(false);
  });

  it('an empty list blacklists nothing', async () => {
    const b = await blacklist([]);
    expect(b.isBlacklisted('https://evil.example/casino')).toBe(false);
    expect(b.isBlacklisted('not a url')).toBe(false);
  });
});
