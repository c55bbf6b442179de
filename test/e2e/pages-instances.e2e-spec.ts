import { describe, expect, it } from 'vitest';
import { useTwoInstances } from '../support/app';
import { useLogin } from '../support/login';
import { createShort } from '../support/shorts';
import { BROWSER_UA } from '../support/user-agent';

/**
 * Link pages are cached a few seconds per instance (PageRenderer); a change on one instance drops
 * the page on every instance through the cache bus, well before the cache's own TTL (5 s).
 */
describe('link pages on two instances', () => {
  const { a, b } = useTwoInstances();
  const alice = useLogin(a, 'alice');

  const onB = async (path: string) => {
    const res = await b.fetch(path, { headers: { 'user-agent': BROWSER_UA } });
    return `${res.status} ${await res.text()}`;
  };

  it('a change of the page or of its short on A shows on the next view on B', async () => {
    const short = await createShort(alice, { url: 'https://example.com/x', name: 'Short one' });
    const slug = `inst-${Date.now().toString(36)}`;
    // B has seen the slug absent.
    expect(await onB(`/p/${slug}`)).toMatch(/^404 /);
    const res = await alice.post('/api/pages', {
      slug,
      title: 'Title one',
      links: [{ shortId: short.id }],
      theme: 'auto',
    });
    expect(res.status).toBe(201);
    const { id } = (await res.json()) as { id: string };
    await expect.poll(() => onB(`/p/${slug}`), { timeout: 1_000 }).toMatch(/^200 .*Title one/s);
    expect(await onB(`/p/${slug}`)).toContain('Short one');

    expect((await alice.patch(`/api/pages/${id}`, { title: 'Title two' })).status).toBe(200);
    await expect.poll(() => onB(`/p/${slug}`), { timeout: 1_000 }).toContain('Title two');

    expect((await alice.patch(`/api/code/${short.id}`, { name: 'Short two' })).status).toBe(200);
    await expect.poll(() => onB(`/p/${slug}`), { timeout: 1_000 }).toContain('Short two');

    expect((await alice.delete(`/api/pages/${id}`)).status).toBe(204);
    await expect.poll(() => onB(`/p/${slug}`), { timeout: 1_000 }).toMatch(/^404 /);
  });
});
