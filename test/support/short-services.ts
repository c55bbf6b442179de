import type { DataSource } from 'typeorm';
import { AccessPolicy } from '../../src/access/access-policy';
import type { BlacklistService } from '../../src/blacklist/blacklist.service';
import type { AppConfig } from '../../src/config/config';
import type { DomainRegistry } from '../../src/domains/domain-registry';
import type { RateLimitService } from '../../src/limits/rate-limit.service';
import type { MetricsService } from '../../src/metrics/metrics.service';
import type { CacheBus } from '../../src/redis/cache-bus';
import type { PasswordLimiter } from '../../src/shorts/password-limiter';
import { ShortAccessService } from '../../src/shorts/short-access.service';
import { ShortCreateService } from '../../src/shorts/short-create.service';
import { ShortEditService } from '../../src/shorts/short-edit.service';
import { ShortEntity } from '../../src/shorts/short.entity';
import { UNCHECKED } from '../../src/shorts/short-health';
import type { ShortInsertRepository } from '../../src/shorts/short-insert.repository';
import type { ShortRepository } from '../../src/shorts/short.repository';
import { ShortViewService } from '../../src/shorts/short-view.service';

/**
 * The shorts module's services for unit tests, wired as ShortsModule wires them, over fakes: the
 * repositories' methods a test needs, a blacklist predicate, the domains of the registry, and
 * what the bus and the create counter hear. Anything left out is an empty object.
 */
export function shortServices(
  fakes: {
    repo?: object;
    inserts?: object;
    isBlacklisted?: (url: string) => boolean;
    domain?: (host: string) => unknown;
    publish?: (channel: string, key: string) => void;
    inc?: (...args: unknown[]) => void;
  } = {},
) {
  const repo = (fakes.repo ?? {}) as ShortRepository;
  const config = { baseUrl: 'https://short.example', port: 8080 } as AppConfig;
  const bus = { publish: fakes.publish ?? (() => undefined) } as unknown as CacheBus;
  const domains = { get: fakes.domain ?? (() => undefined) } as unknown as DomainRegistry;
  const blacklist = {
    isBlacklisted: fakes.isBlacklisted ?? (() => false),
  } as unknown as BlacklistService;
  // The access policy on a database without teams (no memberships: own spaces and admins only).
  const policy = new AccessPolicy({
    options: { type: 'better-sqlite3' },
    query: async () => [],
  } as unknown as DataSource);
  const access = new ShortAccessService(repo, {} as PasswordLimiter, domains, policy);
  const view = new ShortViewService(repo, config, blacklist, access);
  const create = new ShortCreateService(
    (fakes.inserts ?? {}) as ShortInsertRepository,
    config,
    blacklist,
    bus,
    { creates: { inc: fakes.inc ?? (() => undefined) } } as unknown as MetricsService,
    {} as RateLimitService,
    domains,
    view,
    policy,
  );
  const edit = new ShortEditService(repo, access, create, view, bus, domains);
  return { access, view, create, edit };
}

/** A stored short of another user (alice), with every field set. */
export const storedShort = (): ShortEntity =>
  Object.assign(new ShortEntity(), {
    id: 'id-1',
    code: 'abc',
    domain: '',
    name: 'Name',
    url: 'https://example.com/target',
    passwordHash: null,
    maxUses: 5,
    uses: 2,
    createdAt: new Date('2026-01-01T00:00:00.000Z'),
    expireAt: null,
    ownerId: 'u1',
    owner: { id: 'u1', username: 'alice' },
    dangerous: false,
    dangerReason: null,
    expiredUrl: 'https://example.com/ended',
    rules: null,
    tags: null,
    qrStyle: null,
    ...UNCHECKED,
  });
