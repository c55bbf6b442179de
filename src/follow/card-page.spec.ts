import { describe, expect, it } from 'vitest';
import { CARD_AGENT_TOKENS, isCardAgent } from './card-agents';
import { cardPage } from './card-page';
import { cardOf } from './follow-http';

/** The `<meta>` tags of a page, by property or name (values as written, still escaped). */
function metaTags(html: string): Map<string, string> {
  const tags = new Map<string, string>();
  for (const m of html.matchAll(/<meta (property|name|http-equiv)="([^"]+)" content="([^"]*)">/g)) {
    tags.set(m[2], m[3]);
  }
  return tags;
}

describe('link-card crawlers (isCardAgent)', () => {
  it.each([
    'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)',
    'Slackbot 1.0 (+https://api.slack.com/robots)',
    'Twitterbot/1.0',
    'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)',
    'LinkedInBot/1.0 (compatible; Mozilla/5.0; Apache-HttpClient +http://www.linkedin.com)',
    'Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)',
    'WhatsApp/2.23.20.0 A',
    'TelegramBot (like TwitterBot)',
  ])('knows %s', (ua) => {
    expect(isCardAgent(ua)).toBe(true);
    expect(isCardAgent(ua)).toBe(true); // the kept answer
  });

  it.each([
    'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
    'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)',
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0 Safari/537.36',
    'curl/8.5.0',
    '',
  ])('does not take %s for one', (ua) => {
    expect(isCardAgent(ua)).toBe(false);
  });

  it('matches a long user agent without keeping it, and every listed token', () => {
    expect(isCardAgent(`${'x'.repeat(600)} Discordbot/2.0`)).toBe(true);
    for (const token of CARD_AGENT_TOKENS) expect(isCardAgent(`Mozilla/5.0 ${token}/1`)).toBe(true);
  });
});

describe('the card page (cardPage)', () => {
  const hostile = `"<b>&'x</b>`;
  const escaped = '&quot;&lt;b&gt;&amp;&#39;x&lt;/b&gt;';

  it('writes the og: and twitter: tags, the refresh and the link, all escaped', () => {
    const html = cardPage(
      {
        title: hostile,
        description: `d ${hostile}`,
        image: `https://img.example/a.png?x=1&y="2"`,
        url: `https://example.com/p?a=1&b='2'<`,
      },
      'en',
    );
    const tags = metaTags(html);
    expect(tags.get('og:title')).toBe(escaped);
    expect(tags.get('twitter:title')).toBe(escaped);
    expect(tags.get('og:description')).toBe(`d ${escaped}`);
    expect(tags.get('twitter:description')).toBe(`d ${escaped}`);
    expect(tags.get('og:image')).toBe('https://img.example/a.png?x=1&amp;y=&quot;2&quot;');
    expect(tags.get('twitter:image')).toBe(tags.get('og:image'));
    expect(tags.get('twitter:card')).toBe('summary_large_image');
    expect(tags.get('og:url')).toBe('https://example.com/p?a=1&amp;b=&#39;2&#39;&lt;');
    expect(tags.get('refresh')).toBe('0; url=https://example.com/p?a=1&amp;b=&#39;2&#39;&lt;');
    expect(html).toContain('<a href="https://example.com/p?a=1&amp;b=&#39;2&#39;&lt;">');
    expect(html).toContain('<html lang="en">');
    expect(html).toContain('Continue to the target');
    // Nothing of the hostile text comes through unescaped.
    expect(html).not.toContain('<b>');
    expect(html).not.toContain(`"<`);
  });

  it('leaves out what is empty and, without a target, og:url, the refresh and the link', () => {
    const html = cardPage({ title: 'T', description: null, image: null, url: null }, 'de');
    const tags = metaTags(html);
    expect(tags.get('og:title')).toBe('T');
    expect(tags.get('twitter:card')).toBe('summary');
    for (const gone of ['og:description', 'og:image', 'og:url', 'refresh', 'twitter:image'])
      expect(tags.has(gone)).toBe(false);
    expect(html).not.toContain('<a ');
    expect(html).toContain('<html lang="de">');
    expect(tags.get('robots')).toBe('noindex, nofollow');
  });

  it('fills empty parts from the held metadata, the title else from the name', () => {
    const base = {
      kind: 'card' as const,
      shortId: 'id',
      owned: false,
      url: 'https://example.com/',
    };
    expect(
      cardOf({
        ...base,
        name: 'Name',
        preview: { description: 'own' },
        meta: { title: 'Meta title', description: 'meta', image: 'https://example.com/i.png' },
      }),
    ).toEqual({
      title: 'Meta title',
      description: 'own',
      image: 'https://example.com/i.png',
      url: 'https://example.com/',
    });
    expect(
      cardOf({ ...base, name: 'Name', preview: { image: 'https://e.example/i.png' } }),
    ).toEqual({
      title: 'Name',
      description: null,
      image: 'https://e.example/i.png',
      url: 'https://example.com/',
    });
    expect(cardOf({ ...base, name: null, preview: { description: 'd' } }).title).toBe(
      'URL-Shorter',
    );
  });
});
