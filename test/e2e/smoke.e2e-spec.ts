import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/app';

describe('smoke', () => {
  const t = useTestApp();

  it('creates and follows a short', async () => {
    const res = await t.post('/api/code', { url: 'https://example.com/a' });
    expect(res.status).toBe(201);
    const { code } = (await res.json()) as { code: string };
    expect(code).toMatch(/^[2-9a-km-zA-HJ-NP-Z]{7}$/);
    const f = await t.fetch(`/api/code/${code}`);
    expect(f.status).toBe(302);
    expect(f.headers.get('location')).toBe('https://example.com/a');
  });
});
