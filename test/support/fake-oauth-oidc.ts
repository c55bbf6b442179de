/**
 * A real OpenID Connect provider (the certified `oidc-provider` package) on loopback, for e2e tests of
 * the generic OIDC login (openid-client's passport strategy).
 *
 *   const op = await startOidcProvider();
 *   const t = await createTestApp({ ...op.env });   // AUTH_OIDC_ISSUER/CLIENT_ID/CLIENT_SECRET/NAME
 *   op.account = { sub: 'u-1', preferred_username: 'kim', email: 'kim@example.com' };
 *   const r = await oauthLogin(t, 'oidc', { providerFetch: op.browse });
 *
 * Login interactions are answered without UI: the next account is logged in and the requested
 * scopes granted. PKCE is required by the provider. `browse` follows the provider's own redirects with a
 * fresh cookie jar (a new browser each call, so `account` decides who logs in), and stops at the
 * redirect back to the app.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

export interface OidcAccount {
  sub: string;
  preferred_username?: string;
  email?: string;
  picture?: string;
}

export interface FakeOidc {
  issuer: string;
  env: Record<string, string>;
  account: OidcAccount;
  /** Follows provider redirects (cookie jar); returns the answer that leaves the provider. */
  browse(url: string): Promise<Response>;
  close(): Promise<void>;
}

export async function startOidcProvider(
  opts: { redirectUri?: string; name?: string } = {},
): Promise<FakeOidc> {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const state = { account: { sub: 'oidc-user-1', preferred_username: 'kim' } as OidcAccount };
  const accounts = new Map<string, OidcAccount>();

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: 'url-shorter',
        client_secret: 'oidc-test-secret',
        redirect_uris: [opts.redirectUri ?? 'http://localhost:8080/api/auth/oidc/callback'],
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    claims: { openid: ['sub'], profile: ['preferred_username', 'picture'], email: ['email'] },
    features: { devInteractions: { enabled: false } },
    pkce: { required: () => true },
    cookies: { keys: ['oidc-test-cookie-key'] },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    findAccount: (_ctx, sub) => {
      const a = accounts.get(sub);
      return a ? { accountId: sub, claims: () => ({ ...a }) } : undefined;
    },
    loadExistingGrant: async (ctx) => {
      const clientId = ctx.oidc.client!.clientId;
      const grantId = ctx.oidc.result?.consent?.grantId ?? ctx.oidc.session!.grantIdFor(clientId);
      if (grantId) return ctx.oidc.provider.Grant.find(grantId);
      const grant = new ctx.oidc.provider.Grant({
        clientId,
        accountId: ctx.oidc.session!.accountId!,
      });
      grant.addOIDCScope('openid profile email');
      await grant.save();
      return grant;
    },
  });
  const callback = provider.callback();
  server.on('request', (req, res) => {
    if (req.url?.startsWith('/interaction/')) {
      void (async () => {
        const details = await provider.interactionDetails(req, res);
        if (details.prompt.name !== 'login')
          throw new Error(`unexpected prompt ${details.prompt.name}`);
        const a = { ...state.account };
        accounts.set(a.sub, a);
        await provider.interactionFinished(
          req,
          res,
          { login: { accountId: a.sub } },
          { mergeWithLastSubmission: false },
        );
      })().catch((err: unknown) => {
        res.statusCode = 500;
        res.end(String(err));
      });
      return;
    }
    void callback(req, res);
  });

  const browse = async (start: string): Promise<Response> => {
    const jar = new Map<string, string>(); // a fresh browser each time: the provider asks who logs in
    let url = start;
    for (let hop = 0; hop < 10; hop++) {
      const cookie = [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
      const res = await fetch(url, { redirect: 'manual', headers: cookie ? { cookie } : {} });
      for (const c of res.headers.getSetCookie()) {
        const [pair] = c.split(';');
        const i = pair.indexOf('=');
        const name = pair.slice(0, i);
        const value = pair.slice(i + 1);
        if (value === '' || /expires=Thu, 01 Jan 1970/i.test(c)) jar.delete(name);
        else jar.set(name, value);
      }
      const loc = res.headers.get('location');
      if (res.status < 300 || res.status >= 400 || !loc) return res;
      const next = new URL(loc, url);
      if (next.origin !== issuer) return res;
      url = next.toString();
    }
    throw new Error('too many provider redirects');
  };

  return Object.assign(state, {
    issuer,
    env: {
      AUTH_OIDC_ISSUER: issuer,
      AUTH_OIDC_CLIENT_ID: 'url-shorter',
      AUTH_OIDC_CLIENT_SECRET: 'oidc-test-secret',
      AUTH_OIDC_NAME: opts.name ?? 'Keycloak',
    },
    browse,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}
