import { describe, expect, it } from 'vitest';
import { hostMatches, normalizeHost } from './host';

describe('normalizeHost', () => {
  it.each([
    ['evil.com', 'evil.com'],
    ['EVIL.COM', 'evil.com'],
    ['evil.com.', 'evil.com'],
    ['www.evil.com', 'evil.com'],
    ['https://user:pw@www.Evil.com:443/path?q', 'evil.com'],
    ['http://evil.com:80/', 'evil.com'],
    ['bücher.example', 'xn--bcher-kva.example'],
    ['xn--bcher-kva.example', 'xn--bcher-kva.example'],
    ['https://BÜCHER.example./', 'xn--bcher-kva.example'],
    ['[::1]', '[::1]'],
  ])('%s → %s', (input, expected) => {
    expect(normalizeHost(input)).toBe(expected);
  });

  it('returns null for nothing host-like', () => {
    expect(normalizeHost('')).toBeNull();
    expect(normalizeHost('http://')).toBeNull();
  });
});

describe('hostMatches', () => {
  it('matches the host and its subdomains only', () => {
    expect(hostMatches('evil.com', 'evil.com')).toBe(true);
    expect(hostMatches('a.b.evil.com', 'evil.com')).toBe(true);
    expect(hostMatches('notevil.com', 'evil.com')).toBe(false);
    expect(hostMatches('evil.com.au', 'evil.com')).toBe(false);
  });
});
