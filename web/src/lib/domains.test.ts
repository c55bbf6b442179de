import { afterEach, describe, expect, it } from 'vitest';
import {
  domainState,
  initialDomain,
  LAST_DOMAIN_KEY,
  readLastDomain,
  rememberDomain,
  usableHosts,
} from './domains';

afterEach(() => localStorage.clear());

describe('own domains', () => {
  it('a domain is ausstehend until verified, deaktiviert when disabled', () => {
    expect(domainState({ verified: false, enabled: true })).toBe('pending');
    expect(domainState({ verified: true, enabled: true })).toBe('verified');
    expect(domainState({ verified: true, enabled: false })).toBe('disabled');
  });

  it('the form offers only verified, enabled domains', () => {
    expect(
      usableHosts([
        { host: 'a.example', verified: true, enabled: true },
        { host: 'b.example', verified: false, enabled: true },
        { host: 'c.example', verified: true, enabled: false },
      ]),
    ).toEqual(['a.example']);
  });

  it('the first choice is the remembered domain while it is usable, else the main host', () => {
    expect(initialDomain(['a.example'], 'a.example')).toBe('a.example');
    expect(initialDomain(['a.example'], 'gone.example')).toBe('');
    expect(initialDomain(['a.example'], null)).toBe('');
  });

  it('remembers the choice only with the design consent (as the theme)', () => {
    rememberDomain('a.example', true);
    expect(localStorage.getItem(LAST_DOMAIN_KEY)).toBe('a.example');
    expect(readLastDomain()).toBe('a.example');
    rememberDomain('b.example', false);
    expect(localStorage.getItem(LAST_DOMAIN_KEY)).toBeNull();
  });
});
