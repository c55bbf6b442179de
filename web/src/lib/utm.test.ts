import { describe, expect, it } from 'vitest';
import { NO_UTM, readUtm, templateValues, utmCount, writeUtm } from './utm';

describe('readUtm', () => {
  it('reads the five parameters, decoded; absent ones are empty', () => {
    expect(
      readUtm('https://example.com/p?utm_source=news%20letter&x=1&utm_campaign=herbst+2026#top'),
    ).toEqual({ ...NO_UTM, source: 'news letter', campaign: 'herbst 2026' });
  });

  it('reads the first of a repeated parameter and ignores the fragment', () => {
    expect(readUtm('https://example.com/?utm_medium=a&utm_medium=b#utm_term=no')?.medium).toBe('a');
    expect(readUtm('https://example.com/#utm_term=no')?.term).toBe('');
  });

  it('is null for what is no absolute http(s) URL', () => {
    for (const url of ['', 'example.com', 'javascript:alert(1)', 'ftp://x.example/', 'http//x']) {
      expect(readUtm(url), url).toBeNull();
    }
  });
});

describe('writeUtm', () => {
  it('appends new parameters after the others, in the fixed order', () => {
    expect(writeUtm('https://example.com/path?a=1', { campaign: 'c', source: 's' })).toBe(
      'https://example.com/path?a=1&utm_source=s&utm_campaign=c',
    );
    expect(writeUtm('https://example.com', { medium: 'email' })).toBe(
      'https://example.com?utm_medium=email',
    );
  });

  it('replaces a parameter in place and keeps other parameters byte for byte, and the fragment', () => {
    const url = 'https://example.com/p?q=a%20b&utm_source=old&list=x,y&empty=#frag?utm_source=f';
    expect(writeUtm(url, { source: 'new' })).toBe(
      'https://example.com/p?q=a%20b&utm_source=new&list=x,y&empty=#frag?utm_source=f',
    );
  });

  it('removes a parameter set to empty (all its repetitions), and the ? with the last one', () => {
    expect(writeUtm('https://example.com/?utm_term=a&b=2&utm_term=c', { term: '' })).toBe(
      'https://example.com/?b=2',
    );
    expect(writeUtm('https://example.com/?utm_term=a#x', { term: '' })).toBe(
      'https://example.com/#x',
    );
  });

  it('writes a repeated parameter once, where it stood first', () => {
    expect(writeUtm('https://e.example/?utm_content=1&z=0&utm_content=2', { content: 'x' })).toBe(
      'https://e.example/?utm_content=x&z=0',
    );
  });

  it('encodes values and reads them back unchanged', () => {
    const value = 'Herbst & Winter = 50%/#1 ü';
    const url = writeUtm('https://example.com/a?b=c#d', { campaign: value });
    expect(url).toMatch(/^https:\/\/example\.com\/a\?b=c&utm_campaign=[^#&]+#d$/);
    expect(readUtm(url!)?.campaign).toBe(value);
  });

  it('leaves the URL as written when nothing changes', () => {
    const url = 'https://example.com/?utm_source=s&x=%7e';
    expect(writeUtm(url, { source: 's', medium: '' })).toBe(url);
    expect(writeUtm(url, {})).toBe(url);
  });

  it('leaves other parameters whose names only look alike', () => {
    expect(writeUtm('https://example.com/?UTM_SOURCE=a&utm_sourcex=b', { source: 'c' })).toBe(
      'https://example.com/?UTM_SOURCE=a&utm_sourcex=b&utm_source=c',
    );
  });

  it('a decoded name counts as the parameter (utm%5Fsource)', () => {
    expect(writeUtm('https://example.com/?utm%5Fsource=a', { source: 'b' })).toBe(
      'https://example.com/?utm_source=b',
    );
  });

  it('is null for what is no http(s) URL', () => {
    expect(writeUtm('example.com', { source: 'a' })).toBeNull();
    expect(writeUtm('mailto:a@example.com', { source: 'a' })).toBeNull();
  });

  it('applies a template: all five, null ones removed', () => {
    const url = 'https://example.com/?utm_term=old&x=1';
    const next = writeUtm(url, templateValues({ source: 'li', medium: null, term: null }));
    expect(next).toBe('https://example.com/?x=1&utm_source=li');
    expect(utmCount(readUtm(next!))).toBe(1);
    expect(utmCount(null)).toBe(0);
  });
});
