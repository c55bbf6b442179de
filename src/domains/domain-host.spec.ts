import { describe, expect, it } from 'vitest';
import { normalizeDomainHost, requestHost } from './domain-host';

describe('domain hosts', () => {
  it.each([
    ['go.example.com', 'go.example.com'],
    ['  GO.Example.COM.  ', 'go.example.com'],
    ['bücher.example', 'xn--bcher-kva.example'],
    ['a-b.c-d.example', 'a-b.c-d.example'],
  ])('%j is stored as %j', (input, host) => {
    expect(normalizeDomainHost(input)).toEqual({ host });
  });

  it.each([
    '',
    'localhost',
    'http://go.example.com',
    'go.example.com:443',
    'go.example.com/path',
    'user@go.example.com',
    '203.0.113.9',
    '[::1]',
    '-bad.example',
    'bad-.example',
    `${'a'.repeat(64)}.example`,
    `${'a.'.repeat(127)}example`,
    'example.123',
    'with space.example',
  ])('%j is refused', (input) => {
    expect(normalizeDomainHost(input)).toHaveProperty('error');
  });

  it('reads a request’s Host without its port, never an IPv6 literal', () => {
    expect(requestHost('Go.Example.com:8080')).toBe('go.example.com');
    expect(requestHost('go.example.com.')).toBe('go.example.com');
    expect(requestHost('[::1]:8080')).toBeNull();
    expect(requestHost(undefined)).toBeNull();
  });
});
