import { describe, expect, it } from 'vitest';
import { parseTargetUrl } from './target-url';

const base = 'https://sho.rt';

describe('parseTargetUrl', () => {
  it('accepts absolute http and https URLs and normalises them', () => {
    expect(parseTargetUrl('https://example.com/a?b=c#d', base)).toEqual({
      url: 'https://example.com/a?b=c#d',
    });
    expect(parseTargetUrl('HTTP://Example.COM', base)).toEqual({ url: 'http://example.com/' });
    expect(parseTargetUrl('https://example.com/ä', base)).toEqual({
      url: 'https://example.com/%C3%A4',
    });
    expect(parseTargetUrl('https://bücher.example/', base)).toEqual({
      url: 'https://xn--bcher-kva.example/',
    });
    expect(parseTargetUrl('http://192.168.1.10:8080/intranet', base)).toEqual({
      url: 'http://192.168.1.10:8080/intranet',
    });
  });

  it.each([
    'javascript:alert(1)',
    'data:text/plain,hi',
    'file:///etc/passwd',
    'mailto:a@b.c',
    '/relative',
    'example.com',
    'http://',
    'https://exa mple.com',
    'https://example.com/\u0007',
    'https://example.com/\u2028',
    `https://example.com/${'x'.repeat(2048)}`,
    'https://a..b/',
  ])('refuses %j', (url) => {
    expect(parseTargetUrl(url, base)).toHaveProperty('error');
  });

  it('refuses links back to this service (no redirect loops)', () => {
    expect(parseTargetUrl('https://sho.rt/s/abc', base)).toHaveProperty('error');
    expect(parseTargetUrl('https://SHO.RT.:443/x', base)).toHaveProperty('error');
    expect(parseTargetUrl('https://www.sho.rt/x', base)).toHaveProperty('error');
    expect(parseTargetUrl('https://sho.rt:8443/x', base)).toEqual({ url: 'https://sho.rt:8443/x' });
    expect(parseTargetUrl('http://localhost:8080/s/x', 'http://localhost:8080')).toHaveProperty(
      'error',
    );
  });
});
