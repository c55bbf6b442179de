import { describe, expect, it } from 'vitest';
import { CLIENT_ROUTE_ROOTS, CLIENT_ROUTES } from './client-routes';
import {
  FOLLOW_PAGE,
  isFollowRequest,
  matchFollow,
  matchMainHost,
  matchOwnDomain,
  matchRootFollow,
} from './follow-path';
import { isReservedCode } from './limits';

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

describe('/{code} on the main host', () => {
  it('follows a code-shaped segment, with a trailing slash and a query', () => {
    expect(matchMainHost('GET', '/aB3dE5f')).toMatchObject({ prefix: 's', rawCode: 'aB3dE5f' });
    expect(matchMainHost('HEAD', '/my_code-1/')).toMatchObject({ rawCode: 'my_code-1' });
    expect(matchMainHost('GET', '/abc?accept_danger=true')?.query.get('accept_danger')).toBe(
      'true',
    );
    expect(isFollowRequest('GET', '/aB3dE5f')).toBe(true);
  });

  it("never takes a client route, a file, a folder or another method: the client's pages stay", () => {
    // The client's pages; `/s/{code}` is the follow itself (matchFollow), never `/{code}`.
    const clientPaths = Object.values(CLIENT_ROUTES)
      .filter((p) => p !== CLIENT_ROUTES.follow)
      .map((p) => p.replace(':code', 'abc'));
    expect(matchRootFollow('GET', '/s/abc')).toBeNull();
    for (const url of [
      ...clientPaths,
      '/',
      '/login?redirect=%2Fshorts',
      '/Login',
      '/SHORTS/',
      '/api',
      '/management',
      '/assets',
      '/assets/index-abc123.js',
      '/favicon.svg',
      '/index.html',
      '/robots.txt',
      '/.well-known/security.txt',
      '/a%20b',
      `/${'x'.repeat(65)}`,
    ]) {
      expect(matchMainHost('GET', url), url).toBeNull();
      expect(matchRootFollow('GET', url), url).toBeNull();
    }
    expect(matchRootFollow('POST', '/abc')).toBeNull();
    expect(matchRootFollow(undefined, '/abc')).toBeNull();
  });

  it('every first segment of a client route is a reserved word, so no code can take it', () => {
    expect(CLIENT_ROUTE_ROOTS).toEqual(
      expect.arrayContaining(['login', 's', 'service', 'shorts', 'account', 'admin']),
    );
    for (const root of CLIENT_ROUTE_ROOTS) expect(isReservedCode(root), root).toBe(true);
  });

  it('own domains follow /{code} by the same rule, and / is their home', () => {
    expect(matchOwnDomain('GET', '/launch')).toMatchObject({ rawCode: 'launch' });
    expect(matchOwnDomain('GET', '/')).toBe('home');
    expect(matchOwnDomain('GET', '/login')).toBeNull();
    expect(matchOwnDomain('GET', '/favicon.svg')).toBeNull();
  });
});
