import passport from 'passport';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DiscordStrategy } from '../../src/account/providers/discord.strategy';
import { GithubStrategy } from '../../src/account/providers/github.strategy';
import { OidcStrategy } from '../../src/account/providers/oidc.strategy';
import { createTestApp, useTestApp } from '../support/app';
import { oauthLogin, startFakeOAuth, type FakeOAuth } from '../support/fake-oauth';
import { startOidcProvider, type FakeOidc } from '../support/fake-oauth-oidc';

/** The strategy passport's (process-wide) instance has under `name`, if any. */
const registered = (name: string): unknown =>
  (passport as unknown as { _strategy(name: string): unknown })._strategy(name);

interface UserJson {
  id: string;
  username: string;
  email: string | null;
  imageUrl: string | null;
  authorities: string[];
}

describe('login round trips through the real passport strategies', () => {
  let gh: FakeOAuth;
  let dc: FakeOAuth;
  let op: FakeOidc;

  beforeAll(async () => {
    gh = await startFakeOAuth('github');
    dc = await startFakeOAuth('discord');
    op = await startOidcProvider();
  });
  afterAll(async () => {
    await gh?.close();
    await dc?.close();
    await op?.close();
  });
  // Booted after the fake providers (hooks run in order) and closed before them.
  const t = useTestApp(() => ({
    ...gh.env,
    ...dc.env,
    ...op.env,
    ADMIN_USERS: 'github:OctoAdmin,discord:dadmin,oidc:oadmin',
  }));

  const account = async (cookie: string | null): Promise<UserJson> => {
    const res = await t.fetch('/api/account', { headers: { cookie: cookie ?? '' } });
    expect(res.status).toBe(200);
    return (await res.json()) as UserJson;
  };
  const userCount = async (provider: string, id: string) =>
    Number(
      (
        await t.query(
          'SELECT COUNT(*) AS n FROM users WHERE provider = ? AND provider_user_id = ?',
          [provider, id],
        )
      )[0].n,
    );

  it('lists the configured providers with their login urls', async () => {
    const list = (await (await t.fetch('/api/auth-providers')).json()) as {
      name: string;
      url: string;
    }[];
    expect(list).toEqual([
      { name: 'github', url: '/api/auth/github' },
      { name: 'discord', url: '/api/auth/discord' },
      { name: 'Keycloak', url: '/api/auth/oidc' },
    ]);
  });

  it('the configured providers are PassportStrategy classes; OIDC’s is made at its first login', async () => {
    expect(registered('github')).toBe(t.app.get(GithubStrategy));
    expect(registered('github')).toBeInstanceOf(GithubStrategy);
    expect(registered('discord')).toBeInstanceOf(DiscordStrategy);
    expect(registered('oidc')).toBeUndefined();
    await oauthLogin(t, 'oidc', { providerFetch: op.browse });
    expect(registered('oidc')).toBeInstanceOf(OidcStrategy);
  });

  it('GitHub: state and PKCE are sent; user created once; returning login reuses it; session id changes', async () => {
    gh.user = {
      id: '1001',
      login: 'octocat',
      email: 'octo@example.com',
      avatar: 'https://avatars.example/octo',
    };
    const first = await oauthLogin(t, 'github');
    expect(first.callback.status).toBe(302);
    expect(first.callback.headers.get('location')).toBe('/');
    expect(first.cookie).not.toBeNull();
    expect(first.cookie).not.toBe(first.preCookie);
    const req = gh.authorizeRequests.at(-1)!;
    expect(req.get('state')).toBeTruthy();
    expect(req.get('code_challenge_method')).toBe('S256');
    expect(req.get('redirect_uri')).toBe('http://localhost:8080/api/auth/github/callback');
    expect(gh.tokenRequests.at(-1)!.get('code_verifier')).toBeTruthy();
    const u1 = await account(first.cookie);
    expect(u1).toMatchObject({
      username: 'octocat',
      email: 'octo@example.com',
      imageUrl: 'https://avatars.example/octo',
      authorities: ['ROLE_USER'],
    });
    // the pre-login session does not carry the login
    expect((await t.fetch('/api/account', { headers: { cookie: first.preCookie } })).status).toBe(
      401,
    );

    const second = await oauthLogin(t, 'github');
    const u2 = await account(second.cookie);
    expect(u2.id).toBe(u1.id);
    expect(await userCount('github', '1001')).toBe(1);
  });

  it('GitHub: ADMIN_USERS grants ROLE_ADMIN (case-insensitive)', async () => {
    gh.user = { id: '1002', login: 'octoadmin', email: 'admin@example.com' };
    const r = await oauthLogin(t, 'github');
    expect((await account(r.cookie)).authorities).toEqual(['ROLE_USER', 'ROLE_ADMIN']);
  });

  it('Discord: round trip, created once, admin from ADMIN_USERS', async () => {
    dc.user = { id: '2001', login: 'wumpus', email: 'wumpus@example.com', avatar: 'abc123' };
    const first = await oauthLogin(t, 'discord');
    expect(first.callback.headers.get('location')).toBe('/');
    expect(dc.authorizeRequests.at(-1)!.get('state')).toBeTruthy();
    const u1 = await account(first.cookie);
    expect(u1).toMatchObject({
      username: 'wumpus',
      email: 'wumpus@example.com',
      imageUrl: 'https://cdn.discordapp.com/avatars/2001/abc123.png',
      authorities: ['ROLE_USER'],
    });
    const again = await oauthLogin(t, 'discord');
    expect((await account(again.cookie)).id).toBe(u1.id);
    expect(await userCount('discord', '2001')).toBe(1);
    dc.user = { id: '2002', login: 'dadmin' };
    expect((await account((await oauthLogin(t, 'discord')).cookie)).authorities).toContain(
      'ROLE_ADMIN',
    );
  });

  it('OIDC (oidc-provider): round trip with PKCE and state; created once; admin from ADMIN_USERS', async () => {
    op.account = {
      sub: 'sub-3001',
      preferred_username: 'kim',
      email: 'kim@example.com',
      picture: 'https://img.example/kim',
    };
    const first = await oauthLogin(t, 'oidc', { providerFetch: op.browse });
    expect(first.callback.status).toBe(302);
    expect(first.callback.headers.get('location')).toBe('/');
    expect(first.callbackPath).toMatch(/[?&]state=/);
    const u1 = await account(first.cookie);
    expect(u1).toMatchObject({
      username: 'kim',
      email: 'kim@example.com',
      imageUrl: 'https://img.example/kim',
    });
    const again = await oauthLogin(t, 'oidc', { providerFetch: op.browse });
    expect((await account(again.cookie)).id).toBe(u1.id);
    expect(await userCount('oidc', 'sub-3001')).toBe(1);
    op.account = { sub: 'sub-3002', preferred_username: 'oadmin' };
    const admin = await oauthLogin(t, 'oidc', { providerFetch: op.browse });
    expect((await account(admin.cookie)).authorities).toEqual(['ROLE_USER', 'ROLE_ADMIN']);
  });

  describe.each(['github', 'discord', 'oidc'])(
    '%s: state is required and single-use',
    (provider) => {
      const login = (opts: Parameters<typeof oauthLogin>[2] = {}) =>
        oauthLogin(t, provider, provider === 'oidc' ? { ...opts, providerFetch: op.browse } : opts);
      const noSession = async (r: Awaited<ReturnType<typeof oauthLogin>>) => {
        expect(r.callback.status).toBe(302);
        expect(r.callback.headers.get('location')).toBe('/login?error=login_failed');
        expect(r.cookie).toBeNull();
        expect((await t.fetch('/api/account', { headers: { cookie: r.preCookie } })).status).toBe(
          401,
        );
      };

      it('missing state → no session', async () => {
        await noSession(await login({ tamper: (p) => p.replace(/([?&])state=[^&]*&?/, '$1') }));
      });

      it('wrong state → no session', async () => {
        await noSession(
          await login({ tamper: (p) => p.replace(/state=[^&]*/, 'state=forged-state') }),
        );
      });

      it('replayed state → no session', async () => {
        const ok = await login();
        expect(ok.cookie).not.toBeNull();
        // the same callback again, with the pre-login cookie and with the logged-in cookie
        const replayPre = await t.fetch(ok.callbackPath, { headers: { cookie: ok.preCookie } });
        expect(replayPre.headers.get('location')).toBe('/login?error=login_failed');
        const replay = await t.fetch(ok.callbackPath, { headers: { cookie: ok.cookie! } });
        expect(replay.headers.get('location')).toBe('/login?error=login_failed');
      });

      it('a callback with a state from another browser session → no session', async () => {
        const a = await t.fetch(`/api/auth/${provider}`);
        const stateA = new URL(a.headers.get('location')!).searchParams.get('state');
        await noSession(
          await login({ tamper: (p) => p.replace(/state=[^&]*/, `state=${stateA}`) }),
        );
      });

      it('a same-origin redirect is remembered; an off-site one is ignored', async () => {
        const good = await login({ redirect: '/shorts?x=1' });
        expect(good.callback.headers.get('location')).toBe('/shorts?x=1');
        for (const bad of [
          'https://evil.example/',
          '//evil.example',
          '/\\evil.example',
          'javascript:alert(1)',
        ]) {
          const r = await login({ redirect: bad });
          expect(r.cookie).not.toBeNull();
          expect(r.callback.headers.get('location'), bad).toBe('/');
        }
      });
    },
  );

  it('another app booted and closed in the same process leaves this app its strategies', async () => {
    const other = await createTestApp({ ...gh.env });
    try {
      expect(registered('github')).toBe(other.app.get(GithubStrategy));
    } finally {
      await other.close();
    }
    expect(registered('github')).toBe(t.app.get(GithubStrategy));
    gh.user = { id: '1003', login: 'afterother', email: 'after@example.com' };
    const r = await oauthLogin(t, 'github');
    expect(r.callback.headers.get('location')).toBe('/');
    expect((await account(r.cookie)).username).toBe('afterother');
  });

  it('a provider that is not configured is 404', async () => {
    expect((await t.fetch('/api/auth/gitlab')).status).toBe(404);
    expect((await t.fetch('/api/auth/dev')).status).toBe(404);
  });
});

describe('OIDC issuer unreachable', () => {
  it('the app still starts; the login answers /login?error=provider_unavailable', async () => {
    const t = await createTestApp({
      AUTH_OIDC_ISSUER: 'http://127.0.0.1:1',
      AUTH_OIDC_CLIENT_ID: 'x',
      AUTH_OIDC_CLIENT_SECRET: 'y',
    });
    try {
      const list = (await (await t.fetch('/api/auth-providers')).json()) as { name: string }[];
      expect(list).toEqual([{ name: 'oidc', url: '/api/auth/oidc' }]);
      const res = await t.fetch('/api/auth/oidc');
      expect(res.status).toBe(302);
      expect(res.headers.get('location')).toBe('/login?error=provider_unavailable');
      // Nothing registered: not the unconfigured providers (the app above took its own out at
      // shutdown), and not OIDC's strategy, which needs the discovery.
      expect([registered('github'), registered('discord'), registered('oidc')]).toEqual([
        undefined,
        undefined,
        undefined,
      ]);
    } finally {
      await t.close();
    }
  });
});
