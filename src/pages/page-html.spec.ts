import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { PAGE_CSP, pageHtml, pageNotFoundHtml } from './page-html';
import { type LinkRow, linkShown } from './pages.service';

const styleOf = (html: string) => /<style>([^<]*)<\/style>/.exec(html)?.[1] ?? '';
const hashOf = (css: string) => `'sha256-${createHash('sha256').update(css).digest('base64')}'`;

describe('pageHtml', () => {
  it('escapes every text and attribute and writes no script', () => {
    const html = pageHtml(
      {
        title: '<img src=x onerror=alert(1)>',
        description: '"quoted" & \'single\'',
        theme: 'light',
        links: [{ text: '<script>alert(1)</script>', href: 'http://s.example/s/a"b' }],
      },
      'en',
    );
    expect(html).not.toMatch(/<script|<img/);
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('href="http://s.example/s/a&quot;b"');
    expect(html).toContain('&quot;quoted&quot; &amp; &#39;single&#39;');
  });

  it('each theme’s CSP names exactly its style’s hash and allows nothing else', () => {
    for (const theme of ['light', 'dark', 'auto'] as const) {
      const html = pageHtml({ title: 't', description: null, theme, links: [] }, 'de');
      expect(PAGE_CSP[theme]).toContain(`style-src ${hashOf(styleOf(html))};`);
      expect(PAGE_CSP[theme]).toMatch(/^default-src 'none';/);
    }
    expect(PAGE_CSP.light).not.toBe(PAGE_CSP.dark);
    expect(PAGE_CSP.auto).toContain(hashOf(styleOf(pageNotFoundHtml('en'))).slice(1, -1));
  });

  it('speaks the visitor’s language', () => {
    const view = { title: 't', description: null, theme: 'auto' as const, links: [] };
    expect(pageHtml(view, 'de')).toContain('<html lang="de"');
    expect(pageHtml(view, 'de')).toContain('Hier sind noch keine Links.');
    expect(pageHtml(view, 'en')).toContain('There are no links here yet.');
    expect(pageNotFoundHtml('de')).toContain('Seite nicht gefunden');
  });
});

describe('linkShown', () => {
  const link = (over: Partial<LinkRow>): LinkRow => ({
    shortId: 'id',
    label: null,
    code: 'abc',
    domain: '',
    name: null,
    expireAt: null,
    maxUses: null,
    uses: 0,
    dangerous: false,
    ...over,
  });
  const now = 1_000_000;

  it('leaves out expired, used-up and dangerous shorts', () => {
    expect(linkShown(link({}), now)).toBe(true);
    expect(linkShown(link({ expireAt: now + 1 }), now)).toBe(true);
    expect(linkShown(link({ expireAt: now }), now)).toBe(false);
    expect(linkShown(link({ maxUses: 3, uses: 2 }), now)).toBe(true);
    expect(linkShown(link({ maxUses: 3, uses: 3 }), now)).toBe(false);
    expect(linkShown(link({ dangerous: true }), now)).toBe(false);
  });
});
