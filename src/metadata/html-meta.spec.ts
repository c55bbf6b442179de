import { describe, expect, it } from 'vitest';
import { extractMeta } from './html-meta';

const page = (head: string, body = '') =>
  `<!doctype html><html><head>${head}</head><body>${body}</body></html>`;

describe('extractMeta', () => {
  it('prefers og: tags over <title> and meta description', () => {
    const m = extractMeta(
      page(`<title>Plain title</title>
        <meta name="description" content="Plain description">
        <meta property="og:title" content="OG title">
        <meta property="og:description" content="OG description">
        <meta property="og:image" content="https://cdn.example.com/a.png">`),
    );
    expect(m).toEqual({
      title: 'OG title',
      description: 'OG description',
      image: 'https://cdn.example.com/a.png',
    });
  });

  it('falls back to <title> and meta description', () => {
    const m = extractMeta(
      page('<TITLE>  Hello\n  World </TITLE><META NAME="Description" CONTENT="About this page">'),
    );
    expect(m).toEqual({ title: 'Hello World', description: 'About this page', image: null });
  });

  it('decodes entities', () => {
    const m = extractMeta(
      page(`<title>Tom &amp; Jerry &lt;3</title>
        <meta property="og:description" content="caf&eacute; &#8211; &quot;quoted&quot; &#x1F600;">`),
    );
    expect(m.title).toBe('Tom & Jerry <3');
    expect(m.description).toBe('café – "quoted" 😀');
  });

  it('gives null for a relative, protocol-relative, http or javascript og:image', () => {
    for (const src of [
      '/img/a.png',
      'img/a.png',
      '//cdn.example.com/a.png',
      'http://cdn.example.com/a.png',
      'javascript:alert(1)',
      'data:image/png;base64,AAAA',
      '',
    ]) {
      expect(
        extractMeta(page(`<meta property="og:image" content="${src}">`)).image,
        src,
      ).toBeNull();
    }
  });

  it('keeps the first of repeated tags and ignores an svg <title>', () => {
    const m = extractMeta(
      `<html><head><meta property="og:title" content="first"><meta property="og:title" content="second"></head>
       <body><svg><title>icon</title></svg></body></html>`,
    );
    expect(m.title).toBe('first');
    const n = extractMeta(
      '<html><body><svg><title>icon</title></svg><title>real</title></body></html>',
    );
    expect(n.title).toBe('real');
  });

  it('accepts og: tags given with name= and ignores empty values', () => {
    const m = extractMeta(
      page(
        '<meta name="og:title" content="by name"><meta property="og:description" content="   "><meta name="description" content="fallback">',
      ),
    );
    expect(m.title).toBe('by name');
    expect(m.description).toBe('fallback');
  });

  it('answers all null for a page without metadata or for garbage', () => {
    expect(extractMeta('<html><body>nothing</body></html>')).toEqual({
      title: null,
      description: null,
      image: null,
    });
    expect(extractMeta('\u0000\u0001 not html <<<')).toEqual({
      title: null,
      description: null,
      image: null,
    });
  });

  it('bounds very long titles', () => {
    const m = extractMeta(page(`<title>${'x'.repeat(5000)}</title>`));
    expect(m.title!.length).toBeLessThanOrEqual(300);
  });
});
