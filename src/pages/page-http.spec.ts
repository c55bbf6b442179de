import { describe, expect, it } from 'vitest';
import { pageSlugOf } from './page-http';

describe('the slug of a /p/{slug} path', () => {
  it('leaves paths that are no page path to Express', () => {
    for (const url of ['/', '/p', '/p/', '/px/abc', '/p/abc/def', '/api/pages', '/s/abc']) {
      expect(pageSlugOf(url), url).toBeUndefined();
    }
  });

  it('reads a slug of the custom-code syntax, with a trailing slash, a query or percent-encoding', () => {
    expect(pageSlugOf('/p/my-page')).toBe('my-page');
    expect(pageSlugOf('/p/my_page/')).toBe('my_page');
    expect(pageSlugOf('/p/Abc?utm_source=x')).toBe('Abc');
    expect(pageSlugOf('/p/%41bc')).toBe('Abc');
    expect(pageSlugOf(`/p/${'a'.repeat(64)}`)).toBe('a'.repeat(64));
  });

  it('refuses (null: 404 without a query) what no page can be named', () => {
    for (const url of [
      `/p/${'a'.repeat(65)}`,
      `/p/${'a'.repeat(100_000)}`,
      `/p/${'%41'.repeat(65)}`,
      '/p/ab',
      '/p/a%20b',
      '/p/%E0%A4%A',
      '/p/%2e%2e',
      '/p/caf%C3%A9',
      "/p/x'%20OR%201=1",
    ]) {
      expect(pageSlugOf(url), url.slice(0, 40)).toBeNull();
    }
  });
});
