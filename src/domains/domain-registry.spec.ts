import { describe, expect, it } from 'vitest';
import type { Repository } from 'typeorm';
import type { CacheBus } from '../redis/cache-bus';
import type { FailureReporter } from '../failure/failure-reporter';
import { DOMAIN_CHANGED_CHANNEL, DomainRegistry } from './domain-registry';
import type { DomainEntity } from './domain.entity';

interface Row {
  id: string;
  host: string;
  verified_host: string | null;
  owner_id: string | null;
  team_id: string | null;
  verified: number;
  enabled: number;
  home_redirect: string | null;
  not_found_redirect: string | null;
}

const row = (id: string, host: string, verified = true): Row => ({
  id,
  host,
  verified_host: verified ? host : null,
  owner_id: null,
  team_id: null,
  verified: verified ? 1 : 0,
  enabled: 1,
  home_redirect: null,
  not_found_redirect: null,
});

/** A table behind the two statements the registry makes, counting them; reads may be held. */
function fakeTable() {
  const rows = new Map<string, Row>();
  const queries: string[] = [];
  let hold: Promise<void> | null = null;
  const query = async (sql: string, params: unknown[]) => {
    queries.push(sql);
    if (hold) await hold;
    const verified = [...rows.values()].filter((r) => r.verified_host !== null);
    if (sql.includes('id IN')) return verified.filter((r) => params.includes(r.id));
    const after = params[0] as string;
    const limit = Number(/LIMIT (\d+)/.exec(sql)?.[1]);
    return verified
      .filter((r) => r.id > after)
      .sort((a, b) => (a.id < b.id ? -1 : 1))
      .slice(0, limit);
  };
  const repo = {
    manager: { connection: { options: { type: 'better-sqlite3' } }, query },
  } as unknown as Repository<DomainEntity>;
  return {
    rows,
    queries,
    repo,
    holdReads(): () => void {
      let release!: () => void;
      hold = new Promise((r) => (release = r));
      return () => {
        hold = null;
        release();
      };
    },
  };
}

function registryOf(table: ReturnType<typeof fakeTable>) {
  const handlers = new Map<string, (m: string) => void>();
  const published: string[] = [];
  const bus = {
    on: (channel: string, h: (m: string) => void) => handlers.set(channel, h),
    onResync: () => undefined,
    publish: (channel: string, m: string) => published.push(`${channel}:${m}`),
  } as unknown as CacheBus;
  const failures = {
    background: (err: unknown) => console.error(err),
  } as unknown as FailureReporter;
  const registry = new DomainRegistry(table.repo, bus, failures);
  return { registry, published, deliver: (m: string) => handlers.get(DOMAIN_CHANGED_CHANNEL)?.(m) };
}

describe('DomainRegistry', () => {
  it('a change is one row read again here and one id published; pending claims are not held', async () => {
    const table = fakeTable();
    const { registry, published } = registryOf(table);
    table.rows.set('a', row('a', 'a.example'));
    table.rows.set('p', row('p', 'a.example', false)); // a pending claim of the same host
    await registry.changed('a');
    expect(registry.get('a.example')?.id).toBe('a');
    expect(published).toEqual([`${DOMAIN_CHANGED_CHANNEL}:a`]);
    await registry.changed('p');
    expect(registry.get('a.example')?.id).toBe('a'); // never shadowed by the claim
    expect(table.queries.every((q) => q.includes('id IN'))).toBe(true);
    table.rows.delete('a');
    await registry.changed('a');
    expect(registry.get('a.example')).toBeUndefined();
    expect(registry.size).toBe(0);
  });

  it('a message from another instance reads that row; an id changed during its read is read again after it', async () => {
    const table = fakeTable();
    const { registry, deliver } = registryOf(table);
    table.rows.set('a', row('a', 'a.example'));
    const release = table.holdReads();
    const first = registry.refresh('a');
    await Promise.resolve();
    // While the first read waits, the domain is disabled and the change announced.
    table.rows.set('a', { ...row('a', 'a.example'), enabled: 0 });
    deliver('a');
    const second = registry.refresh('a');
    expect(second).not.toBe(first);
    release();
    await second;
    expect(registry.get('a.example')?.enabled).toBe(false);
    // Ids marked while a round waits to start join it: one read for many.
    const before = table.queries.length;
    await Promise.all(['a', 'b', 'c'].map((id) => registry.refresh(id)));
    expect(table.queries.length - before).toBe(1);
  });

  it('a full resync reads pages of 500, yields between them, and keeps what changed meanwhile', async () => {
    const table = fakeTable();
    const { registry } = registryOf(table);
    for (let i = 0; i < 1200; i++) {
      const id = `id${String(i).padStart(5, '0')}`;
      table.rows.set(id, row(id, `h${i}.example`));
    }
    let yielded = 0;
    const counter = setInterval(() => yielded++, 0);
    const resync = registry.reload();
    // A domain verified while the pages are read (after the page that would have held it).
    table.rows.set('zzz', row('zzz', 'late.example'));
    await registry.refresh('zzz');
    await resync;
    clearInterval(counter);
    expect(table.queries.filter((q) => q.includes('id >'))).toHaveLength(3);
    expect(registry.size).toBe(1201);
    expect(registry.get('late.example')?.id).toBe('zzz');
    expect(yielded).toBeGreaterThan(0);
    // Calls while one runs share the next one.
    const a = registry.reload();
    const b = registry.reload();
    const c = registry.reload();
    expect(b).toBe(c);
    await Promise.all([a, b, c]);
  });
});
