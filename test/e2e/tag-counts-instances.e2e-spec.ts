import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { useTwoInstances } from '../support/app';
import type { LoggedIn } from '../support/login';
import { useLogin } from '../support/login';
import { createShort } from '../support/shorts';

/**
 * The own list's tag totals are kept per instance (TagCountCache, 30 s); a write of the space's
 * tags on one instance drops them on every instance through the cache bus, well before that TTL.
 */
describe('tag filter totals on two instances', () => {
  const { a, b } = useTwoInstances();
  const onA = useLogin(a, 'alice');
  const onB = useLogin(b, 'alice');

  const total = async (u: LoggedIn, tag: string) => {
    const res = await u.fetch(`/api/code?size=1&tag=${encodeURIComponent(tag)}`);
    expect(res.status, await res.clone().text()).toBe(200);
    return ((await res.json()) as { totalElements: number }).totalElements;
  };

  it('a create, an edit and a bulk delete on A change the total on B', async () => {
    const red = `rot-${randomBytes(3).toString('hex')}`;
    const first = await createShort(onA, { tags: [red] });
    expect(await total(onB, red)).toBe(1); // B keeps it
    const second = await createShort(onA, { tags: [red] });
    await expect.poll(() => total(onB, red), { timeout: 1_000 }).toBe(2);

    const edit = await onA.patch(`/api/code/${first.id}`, { tags: ['anders'] });
    expect(edit.status).toBe(200);
    await expect.poll(() => total(onB, red), { timeout: 1_000 }).toBe(1);

    const bulk = await onA.post('/api/code/bulk', { ids: [second.id], delete: true });
    expect(bulk.status).toBe(200);
    await expect.poll(() => total(onB, red), { timeout: 1_000 }).toBe(0);
  });
});
