import { describe, expect, it } from 'vitest';
import { Redactor, secretValuesOf } from './redact';

describe('Redactor', () => {
  it('masks known secret values, also URL-encoded', () => {
    const r = new Redactor();
    r.addSecrets(['s3cr3t/value+x', undefined, 'abc']);
    expect(r.scrub('a s3cr3t/value+x b s3cr3t%2Fvalue%2Bx')).toBe('a ****** b ******');
    expect(r.scrub('abc stays (too short to be a secret)')).toBe(
      'abc stays (too short to be a secret)',
    );
  });

  it('masks credential patterns whose value is not known', () => {
    const r = new Redactor();
    expect(r.scrub('mysql://user:pw123@db:3306/x')).toBe('mysql://user:******@db:3306/x');
    expect(r.scrub('GET /s/abc?password=hunter2&x=1')).toBe('GET /s/abc?password=******&x=1');
    expect(r.scrub('Authorization: Bearer abc.def-ghi')).toBe('Authorization: Bearer ******');
    expect(r.scrub('{"password":"hunter2","a":1}')).toBe('{"password":"******","a":1}');
    expect(r.scrub('cookie: sid=abc; other=def')).toBe('cookie: ******');
  });

  it('masks secret keys in structured values', () => {
    const r = new Redactor();
    expect(r.scrubValue({ user: 'a', password: 'x', nested: { apiKey: 'k', ok: 1 } })).toEqual({
      user: 'a',
      password: '******',
      nested: { apiKey: '******', ok: 1 },
    });
  });

  it('finds the secret values of an environment', () => {
    const values = secretValuesOf({
      APP_SECRET: 'app-secret-value',
      AUTH_GITHUB_CLIENT_SECRET: 'gh-secret',
      AUTH_GITHUB_CLIENT_ID: 'visible-id',
      DB_URL: 'mysql://u:p%40ss@h:1/d',
      SENTRY_DSN: 'http://dsnkey@127.0.0.1:9/1',
    });
    expect(values).toEqual(
      expect.arrayContaining(['app-secret-value', 'gh-secret', 'p@ss', 'dsnkey']),
    );
    expect(values).not.toContain('visible-id');
  });
});
