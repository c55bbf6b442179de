import { describe, expect, it } from 'vitest';
import { useTwoInstances } from '../support/app';
import { useLogin } from '../support/login';

const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';

/**
 * Issue 24: rules on an edited short apply on the next follow on every instance (the edit drops
 * the cached short on both, through the cache bus).
 */
describe('redirect rules on two instances', () => {
  const { a, b } = useTwoInstances();
  const alice = useLogin(a, 'alice');

  const followOnB = async (code: string) =>
    (await b.fetch(`/s/${code}`, { headers: { 'user-agent': IPHONE } })).headers.get('location');

  it('rules added and removed on A decide the next follow on B', async () => {
    const res = await alice.post('/api/code', { url: 'https://example.com/web' });
    expect(res.status).toBe(201);
    const { code } = (await res.json()) as { code: string };
    const info = (await (await alice.fetch(`/api/code/${code}?redirect=false`)).json()) as {
      id: string;
    };
    // B caches the short without rules.
    expect(await followOnB(code)).toBe('https://example.com/web');

    const rules = [{ conditions: [{ type: 'os', value: 'ios' }], url: 'https://apps.example/ios' }];
    expect((await alice.patch(`/api/code/${info.id}`, { rules })).status).toBe(200);
    await expect.poll(() => followOnB(code), { timeout: 1_000 }).toBe('https://apps.example/ios');

    expect((await alice.patch(`/api/code/${info.id}`, { rules: [] })).status).toBe(200);
    await expect.poll(() => followOnB(code), { timeout: 1_000 }).toBe('https://example.com/web');
  });
});
