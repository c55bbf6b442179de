/**
 * Fake GitHub and Discord OAuth 2 servers on loopback, so e2e tests run the REAL passport strategies
 * (passport-github2, passport-discord) end to end.
 *
 *   const gh = await startFakeOAuth('github');
 *   const t = await createTestApp({ ...gh.env });      // AUTH_GITHUB_CLIENT_ID/SECRET + endpoint URLs
 *   gh.user = { id: '42', login: 'octocat', email: 'octo@example.com' };
 *   const { cookie } = await oauthLogin(t, 'github');   // start → provider → callback, like a browser
 *
 * The fake checks client id/secret, redirect_uri, single-use codes and PKCE (S256) when a challenge was
 * sent, and answers the profile (and GitHub's e-mail list) for the issued access token.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestApp } from './app';
import { sessionCookieFrom } from './login';

export type FakeKind = 'github' | 'discord';

export interface FakeUser {
  id: string;
  login: string;
  email?: string;
  avatar?: string;
}

interface Grant {
  user: FakeUser;
  redirectUri: string;
  challenge?: string;
}

export interface FakeOAuth {
  kind: FakeKind;
  url: string;
  clientId: string;
  clientSecret: string;
  /** Environment for createTestApp. */
  env: Record<string, string>;
  /** Who "logs in" at the provider next. */
  user: FakeUser;
  /** Query parameters of every authorization request (for assertions on state/PKCE). */
  authorizeRequests: URLSearchParams[];
  tokenRequests: URLSearchParams[];
  close(): Promise<void>;
}

const PATHS: Record<
  FakeKind,
  { authorize: string; token: string; profile: string; emails?: string }
> = {
  github: {
    authorize: '/login/oauth/authorize',
    token: '/login/oauth/access_token',
    profile: '/user',
    emails: '/user/emails',
  },
  discord: {
    authorize: '/api/oauth2/authorize',
    token: '/api/oauth2/token',
    profile: '/api/users/@me',
  },
};

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let data = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (data += c));
    req.on('end', () => resolve(data));
    req.on('error', reject);
  });
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

export async function startFakeOAuth(kind: FakeKind): Promise<FakeOAuth> {
  const paths = PATHS[kind];
  const clientId = `${kind}-client`;
  const clientSecret = `${kind}-secret-${randomBytes(4).toString('hex')}`;
  const codes = new Map<string, Grant>();
  const tokens = new Map<string, FakeUser>();
  const fake = {
    kind,
    clientId,
    clientSecret,
    user: { id: '1', login: 'someone' } as FakeUser,
    authorizeRequests: [] as URLSearchParams[],
    tokenRequests: [] as URLSearchParams[],
  };

  const server: Server = createServer((req, res) => {
    void (async () => {
      const u = new URL(req.url ?? '/', 'http://fake');
      if (req.method === 'GET' && u.pathname === paths.authorize) {
        fake.authorizeRequests.push(u.searchParams);
        const redirectUri = u.searchParams.get('redirect_uri');
        if (u.searchParams.get('client_id') !== clientId || !redirectUri)
          return json(res, 400, { error: 'bad_request' });
        const code = randomBytes(12).toString('hex');
        const challenge = u.searchParams.get('code_challenge') ?? undefined;
        if (challenge && u.searchParams.get('code_challenge_method') !== 'S256')
          return json(res, 400, { error: 'pkce' });
        codes.set(code, { user: { ...fake.user }, redirectUri, challenge });
        const back = new URL(redirectUri);
        back.searchParams.set('code', code);
        const state = u.searchParams.get('state');
        if (state !== null) back.searchParams.set('state', state);
        res.writeHead(302, { location: back.toString() });
        return res.end();
      }
      if (req.method === 'POST' && u.pathname === paths.token) {
        const form = new URLSearchParams(await readBody(req));
        fake.tokenRequests.push(form);
        let id = form.get('client_id');
        let secret = form.get('client_secret');
        const basic = req.headers.authorization;
        if (basic?.startsWith('Basic ')) {
          [id, secret] = Buffer.from(basic.slice(6), 'base64')
            .toString()
            .split(':')
            .map(decodeURIComponent);
        }
        if (id !== clientId || secret !== clientSecret)
          return json(res, 401, { error: 'invalid_client' });
        const grant = codes.get(form.get('code') ?? '');
        codes.delete(form.get('code') ?? ''); // single use
        if (!grant || grant.redirectUri !== form.get('redirect_uri'))
          return json(res, 400, { error: 'invalid_grant' });
        if (grant.challenge) {
          const verifier = form.get('code_verifier') ?? '';
          const expected = createHash('sha256').update(verifier).digest('base64url');
          if (expected !== grant.challenge)
            return json(res, 400, { error: 'invalid_grant', error_description: 'PKCE' });
        }
        const token = randomBytes(16).toString('hex');
        tokens.set(token, grant.user);
        return json(res, 200, {
          access_token: token,
          token_type: 'bearer',
          scope: 'read:user,user:email',
        });
      }
      const auth = req.headers.authorization ?? '';
      const user = tokens.get(auth.replace(/^(Bearer|token)\s+/i, ''));
      if (req.method === 'GET' && (u.pathname === paths.profile || u.pathname === paths.emails)) {
        if (!user) return json(res, 401, { message: 'Bad credentials' });
        if (u.pathname === paths.emails) {
          return json(
            res,
            200,
            user.email ? [{ email: user.email, primary: true, verified: true }] : [],
          );
        }
        if (kind === 'github') {
          return json(res, 200, {
            id: Number(user.id),
            login: user.login,
            name: user.login,
            avatar_url: user.avatar ?? `https://avatars.example/${user.id}`,
            email: null,
          });
        }
        return json(res, 200, {
          id: user.id,
          username: user.login,
          email: user.email ?? null,
          avatar: user.avatar ?? null,
        });
      }
      json(res, 404, { error: 'not_found' });
    })().catch((err: unknown) => json(res, 500, { error: String(err) }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const P = kind.toUpperCase();
  const env: Record<string, string> = {
    [`AUTH_${P}_CLIENT_ID`]: clientId,
    [`AUTH_${P}_CLIENT_SECRET`]: clientSecret,
    [`AUTH_${P}_AUTHORIZATION_URL`]: url + paths.authorize,
    [`AUTH_${P}_TOKEN_URL`]: url + paths.token,
    [`AUTH_${P}_USER_PROFILE_URL`]: url + paths.profile,
  };
  if (paths.emails) env[`AUTH_${P}_USER_EMAILS_URL`] = url + paths.emails;
  return Object.assign(fake, {
    url,
    env,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}

/** One step of a login as a browser would do it; every answer is kept for assertions. */
export interface OAuthLoginResult {
  /** Session cookie after the start (holds state/PKCE verifier). */
  preCookie: string;
  /** The provider's redirect back to the app (path + query on the app). */
  callbackPath: string;
  /** The app's answer to the callback. */
  callback: Response;
  /** Session cookie after login, or null when the login failed. */
  cookie: string | null;
}

/**
 * Drives start → provider authorize → callback. `follow` lets a test tamper with the callback path
 * before it is sent (drop or change `state`, …).
 */
export async function oauthLogin(
  t: TestApp,
  provider: string,
  opts: {
    redirect?: string;
    tamper?: (callbackPath: string) => string;
    providerFetch?: (url: string) => Promise<Response>;
  } = {},
): Promise<OAuthLoginResult> {
  const q = opts.redirect !== undefined ? `?redirect=${encodeURIComponent(opts.redirect)}` : '';
  const start = await t.fetch(`/api/auth/${provider}${q}`);
  if (start.status !== 302) throw new Error(`login start: ${start.status} ${await start.text()}`);
  const preCookie = sessionCookieFrom(start);
  if (!preCookie) throw new Error('login start set no session cookie');
  const authorizeUrl = start.headers.get('location')!;
  const back = opts.providerFetch
    ? await opts.providerFetch(authorizeUrl)
    : await fetch(authorizeUrl, { redirect: 'manual' });
  if (back.status !== 302 && back.status !== 303)
    throw new Error(`provider authorize: ${back.status} ${await back.text()}`);
  const cb = new URL(back.headers.get('location')!);
  let callbackPath = cb.pathname + cb.search;
  if (opts.tamper) callbackPath = opts.tamper(callbackPath);
  const callback = await t.fetch(callbackPath, { headers: { cookie: preCookie } });
  const after = sessionCookieFrom(callback);
  return { preCookie, callbackPath, callback, cookie: after && after !== preCookie ? after : null };
}
