import { describe, expect, it } from 'vitest';
import { FOLLOW_PAGE, isFollowRequest, matchFollow } from './follow-path';

describe('the follow matcher', () => {
  it('matches GET and HEAD of /s/{code} and /api/code/{code}', () => {
    for (const url of [
      '/s/abc',
      '/s/abc/',
      '/s/abc?password=x',
      '/api/code/abc',
      '/api/code/a%2Fb',
    ]) {
      expect(isFollowRequest('GET', url), url).toBe(true);
      expect(isFollowRequest('HEAD', url), url).toBe(true);
    }
    expect(matchFollow('GET', '/s/aB3?accept_danger=true&password=p%20w')).toMatchObject({
      prefix: 's',
      rawCode: 'aB3',
    });
    expect(matchFollow('GET', '/s/x?password=p%20w')?.query.get('password')).toBe('p w');
  });

  it('leaves everything else alone: other methods, the info call, deeper paths, the SPA', () => {
    for (const [method, url] of [
      ['POST', '/api/code/abc'],
      ['DELETE', '/api/code/abc'],
      ['GET', '/api/code/abc?redirect=false'],
      ['GET', '/api/code/abc?x=1&redirect=false'],
      ['GET', '/api/code'],
      ['GET', '/api/code/'],
      ['GET', '/api/code/abc/metadata'],
      ['GET', '/s/abc/info'],
      ['GET', '/api/code/export'],
      ['GET', '/api/code/export?format=csv'],
      ['GET', '/api/code/import'],
      ['GET', '/s/abc/password-required'],
      ['GET', '/'],
      ['GET', '/shorts'],
      [undefined, '/s/abc'],
    ] as const) {
      expect(isFollowRequest(method, url), `${method} ${url}`).toBe(false);
    }
  });

  it('gives the Vite proxy the /s/{code} follows with and without a query', () => {
    for (const url of ['/s/abc', '/s/abc/', '/s/abc?password=x'])
      expect(FOLLOW_PAGE.test(url)).toBe(true);
    for (const url of ['/s/abc/info', '/s', '/s/', '/shorts'])
      expect(FOLLOW_PAGE.test(url)).toBe(false);
  });
});
