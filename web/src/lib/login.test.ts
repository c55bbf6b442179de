import { describe, expect, it } from 'vitest';
import { loginReturn, providerLoginUrl, rememberLoginReturn, safeReturnPath } from './login';

describe('login return path', () => {
  it('accepts same-origin paths only, never /login itself', () => {
    expect(safeReturnPath('/shorts')).toBe('/shorts');
    expect(safeReturnPath('/s/abc/info?show_report=true')).toBe('/s/abc/info?show_report=true');
    expect(safeReturnPath('//evil.example/')).toBeNull();
    expect(safeReturnPath('https://evil.example/')).toBeNull();
    expect(safeReturnPath('/\\evil.example')).toBeNull();
    expect(safeReturnPath('/a b')).toBeNull();
    expect(safeReturnPath('/login')).toBeNull();
    expect(safeReturnPath('/login?error=login_failed')).toBeNull();
    expect(safeReturnPath(null)).toBeNull();
  });
  it('remembers the last page that sent the user to login', () => {
    rememberLoginReturn('/account');
    expect(loginReturn()).toBe('/account');
    rememberLoginReturn('/login');
    expect(loginReturn()).toBeNull();
  });
  it('adds the redirect query to the provider url', () => {
    expect(providerLoginUrl('/api/auth/github', '/s/x/info?show_report=true')).toBe(
      '/api/auth/github?redirect=%2Fs%2Fx%2Finfo%3Fshow_report%3Dtrue',
    );
    expect(providerLoginUrl('/api/auth/github', null)).toBe('/api/auth/github');
    expect(providerLoginUrl('/api/auth/oidc?x=1', '/a')).toBe('/api/auth/oidc?x=1&redirect=%2Fa');
  });
});
