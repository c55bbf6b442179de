import { describe, expect, it } from 'vitest';
import { parseTargetUrl, ServiceNames } from './target-url';

const base = new ServiceNames('https://sho.rt');

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
    expect(
      parseTargetUrl('http://localhost:8080/s/x', new ServiceNames('http://localhost:8080')),
    ).toHaveProperty('error');
  });

  it('refuses user names and passwords in targets (one host shown, another visited)', () => {
    for (const url of [
      'https://www.paypal.com@evil.example/login',
      'http://user:pass@example.com/',
      'https://:secret@example.com/',
    ]) {
      expect(parseTargetUrl(url, base)).toEqual({
        error: 'must not contain a user name or password',
      });
    }
  });

  it('knows every loopback name of a loopback BASE_URL, on its port and the listening port', () => {
    const self = new ServiceNames('http://127.0.0.1:8080', 9000);
    for (const url of [
      'http://localhost:8080/',
      'http://LOCALHOST.:8080/s/x',
      'http://127.0.0.2:8080/',
      'http://[::1]:8080/',
      'http://[::ffff:127.0.0.1]:8080/',
      'http://0.0.0.0:8080/',
      'http://app.localhost:8080/',
      'http://2130706433:8080/',
      'http://localhost:9000/',
    ]) {
      expect(parseTargetUrl(url, self), url).toEqual({
        error: 'must not point to this service',
        self: true,
      });
    }
    expect(parseTargetUrl('http://localhost:3000/', self)).toEqual({
      url: 'http://localhost:3000/',
    });
    // A public BASE_URL does not make every loopback address "this service".
    expect(parseTargetUrl('http://localhost:8080/', base)).toEqual({
      url: 'http://localhost:8080/',
    });
  });

  it('knows the host a request was sent to', () => {
    const self = base.withRequestHost('short.intern.example:8080', 'http');
    expect(parseTargetUrl('http://short.intern.example:8080/s/x', self)).toHaveProperty('error');
    expect(parseTargetUrl('http://short.intern.example:8080/s/x', base)).toHaveProperty('url');
    const direct = base.withRequestHost('127.0.0.1:4321', 'http');
    expect(parseTargetUrl('http://localhost:4321/', direct)).toHaveProperty('error');
    expect(parseTargetUrl('http://localhost:4322/', direct)).toHaveProperty('url');
  });

  it('knows the own and shared domains it serves, as the predicate says, on any port', () => {
    const asked: string[] = [];
    const served = new Set(['own.example', 'xn--bcher-kva.example']);
    const self = new ServiceNames('https://sho.rt', undefined, (host) => {
      asked.push(host);
      return served.has(host);
    }).withRequestHost('api.sho.rt', 'https');
    for (const url of [
      'http://own.example/loop1',
      'https://OWN.Example./x',
      'http://own.example:80/x',
      'https://own.example:443/x',
      'http://own.example:8080/x',
      'https://bücher.example/x',
      'https://XN--BCHER-KVA.example/x',
    ]) {
      expect(parseTargetUrl(url, self), url).toEqual({
        error: 'must not point to this service',
        self: true,
      });
    }
    // Compared as stored: lower case, punycode, no trailing dot, no port.
    expect(new Set(asked)).toEqual(new Set(['own.example', 'xn--bcher-kva.example']));
    for (const url of [
      'https://www.own.example/x',
      'https://sub.own.example/x',
      'https://example/x',
      'https://[::1]/x',
    ]) {
      expect(parseTargetUrl(url, self), url).toHaveProperty('url');
    }
    // A domain served later (or no longer) is asked at each check.
    served.add('later.example');
    expect(parseTargetUrl('https://later.example/', self)).toHaveProperty('self', true);
    served.delete('own.example');
    expect(parseTargetUrl('https://own.example/', self)).toHaveProperty('url');
  });

  it('a malformed URL is no self link, whatever its host', () => {
    const self = new ServiceNames('https://sho.rt', undefined, () => true);
    expect(parseTargetUrl('javascript:alert(1)', self)).not.toHaveProperty('self');
    expect(parseTargetUrl('https://user@own.example/', self)).toEqual({
      error: 'must not contain a user name or password',
    });
  });
});
