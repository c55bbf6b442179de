import { describe, expect, it } from 'vitest';
import { useTwoInstances } from '../support/app';
import { useLogin } from '../support/login';
import { getOnHost } from '../support/on-host';
import { expectProblem } from '../support/problem';

interface Domain {
  id: string;
  host: string;
  enabled: boolean;
}
interface Page {
  totalElements: number;
  content: Array<Record<string, unknown>>;
}

/**
 * Own domains across instances and in the admin area (CONTRACT "Own domains"): a domain added or
 * disabled on one instance is honoured by the other within a second (the cache bus); admins see
 * every domain, disable one, and delete only an empty one.
 */
describe('own domains on two instances and in the admin area', () => {
  const { a, b } = useTwoInstances({
    ADMIN_USERS: 'dev:admin',
    BASE_URL: 'http://short.example',
  });
  const adminA = useLogin(a, 'admin');
  const aliceA = useLogin(a, 'alice');

  /** Where instance B sends `GET /{code}` on `host`, polled for up to a second. */
  const pollOnB = (host: string, path: string, expected: string | undefined) =>
    expect
      .poll(async () => (await getOnHost(b.url, host, path)).location, {
        timeout: 1000,
        interval: 25,
      })
      .toBe(expected);

  let shared: Domain;

  it('a shared domain added on A is followed on B within a second', async () => {
    // B has read its (empty) registry before the domain exists: it must learn of it by the bus.
    expect((await getOnHost(b.url, 'team.example.org', '/')).location).not.toBe(
      'https://home.example.org/',
    );
    const res = await adminA.post('/api/domains', {
      host: 'team.example.org',
      shared: true,
      homeRedirect: 'https://home.example.org/',
    });
    expect(res.status).toBe(201);
    shared = (await res.json()) as Domain;
    const created = await aliceA.post('/api/code', {
      url: 'https://example.com/team',
      code: 'team',
      domain: 'team.example.org',
    });
    expect(created.status).toBe(201);
    expect(((await created.json()) as { shortUrl: string }).shortUrl).toBe(
      'http://team.example.org/team',
    );
    await pollOnB('team.example.org', '/team', 'https://example.com/team');
    await pollOnB('team.example.org', '/', 'https://home.example.org/');
  });

  it('a domain disabled on A answers the not-found redirect on B within a second; nothing is deleted', async () => {
    const res = await adminA.patch(`/api/domains/${shared.id}`, {
      enabled: false,
      notFoundRedirect: 'https://home.example.org/gone',
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as Domain).enabled).toBe(false);
    await pollOnB('team.example.org', '/team', 'https://home.example.org/gone');
    const again = await adminA.patch(`/api/domains/${shared.id}`, { enabled: true });
    expect(again.status).toBe(200);
    await pollOnB('team.example.org', '/team', 'https://example.com/team');
  });

  it('a domain deleted on A is gone on B within a second, and only that one: B reads no other row', async () => {
    const other = await adminA.post('/api/domains', { host: 'keep.example.org', shared: true });
    expect(other.status).toBe(201);
    const gone = await adminA.post('/api/domains', {
      host: 'brief.example.org',
      shared: true,
      homeRedirect: 'https://home.example.org/brief',
    });
    expect(gone.status).toBe(201);
    const id = ((await gone.json()) as Domain).id;
    await pollOnB('brief.example.org', '/', 'https://home.example.org/brief');
    // Whatever the table says of other domains meanwhile is not read by B for this change.
    await b.query("UPDATE domains SET home_redirect = 'https://sneaked.example/' WHERE host = ?", [
      'keep.example.org',
    ]);
    expect((await adminA.delete(`/api/domains/${id}`)).status).toBe(204);
    await expect
      .poll(async () => (await b.fetch('/api/domains/allowed?domain=brief.example.org')).status, {
        timeout: 1000,
        interval: 25,
      })
      .toBe(404);
    expect((await getOnHost(b.url, 'keep.example.org', '/')).location).toBe(
      'http://short.example/',
    );
    const keepId = ((await other.json()) as Domain).id;
    expect((await adminA.delete(`/api/domains/${keepId}`)).status).toBe(204);
  });

  it('the admin area lists every domain with its owner, never its token', async () => {
    expect((await aliceA.post('/api/domains', { host: 'alice.example.org' })).status).toBe(201);
    const res = await adminA.post('/api/admin/entity/domains/search', {
      query_string: { query: '' },
    });
    expect(res.status).toBe(200);
    const page = (await res.json()) as Page;
    expect(page.totalElements).toBe(2);
    const byHost = Object.fromEntries(page.content.map((r) => [r.host, r]));
    expect(byHost['alice.example.org']).toMatchObject({ owner: 'alice', verified: false });
    expect(byHost['team.example.org']).toMatchObject({ owner: null, verified: true });
    expect(JSON.stringify(page)).not.toMatch(/token|url-shorter-verify/);
    // Users have no admin area.
    expect(
      (await aliceA.post('/api/admin/entity/domains/search', { query_string: { query: '' } }))
        .status,
    ).toBe(403);
  });

  it('admins disable a domain through the admin area (honoured on B) and delete only an empty one', async () => {
    const put = await adminA.put(`/api/admin/entity/domains/${shared.id}`, { enabled: false });
    expect(put.status).toBeLessThan(300);
    await pollOnB('team.example.org', '/team', 'https://home.example.org/gone');

    const inUse = await adminA.delete(`/api/admin/entity/domains/${shared.id}`);
    expect((await expectProblem(inUse, 409)).errorKey).toBe('domain_in_use');

    const alices = (await (await aliceA.fetch('/api/domains')).json()) as Domain[];
    const empty = alices.find((d) => d.host === 'alice.example.org');
    expect(empty).toBeDefined();
    expect((await adminA.delete(`/api/admin/entity/domains/${empty!.id}`)).status).toBe(204);
    const left = (await (await adminA.fetch('/api/domains')).json()) as Domain[];
    expect(left.map((d) => d.host)).toEqual(['team.example.org']);
  });

  it('the own list filters by domain (a host, or DEFAULT for the main host) and sorts by it', async () => {
    expect(
      (await aliceA.post('/api/code', { url: 'https://example.com/main', code: 'home' })).status,
    ).toBe(201);
    const codes = async (qs: string) => {
      const res = await aliceA.fetch(`/api/code?${qs}`);
      const body = (await res.json()) as Page;
      expect(res.status, JSON.stringify(body)).toBe(200);
      return body.content.map((s) => [s.domain, s.code]);
    };
    expect(await codes('domain=team.example.org')).toEqual([['team.example.org', 'team']]);
    expect(await codes('domain=TEAM.example.org.')).toEqual([['team.example.org', 'team']]);
    expect(await codes('domain=DEFAULT')).toEqual([[null, 'home']]);
    expect(await codes('domain=other.example.org')).toEqual([]);
    expect(await codes('sort=domain,desc')).toEqual([
      ['team.example.org', 'team'],
      [null, 'home'],
    ]);
    expect((await aliceA.fetch(`/api/code?domain=${'a'.repeat(254)}`)).status).toBe(400);
  });

  it("on this service's host, ?domain= names a verified domain whose code is meant (info, QR, report)", async () => {
    // Without it the main host's codes: 'team' lives on the domain only.
    expect((await aliceA.fetch('/api/code/team?redirect=false')).status).toBe(404);
    const info = await aliceA.fetch('/api/code/team?redirect=false&domain=TEAM.example.org');
    expect(info.status).toBe(200);
    expect(await info.json()).toMatchObject({
      code: 'team',
      domain: 'team.example.org',
      shortUrl: 'http://team.example.org/team',
      uses: expect.any(Number), // its owner sees the counts
    });
    const qr = await a.fetch('/api/code/team/qr.svg?domain=team.example.org');
    expect(qr.status).toBe(200);
    expect(qr.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
    const report = await adminA.post('/api/code/team/report?domain=team.example.org', {
      reason: 'SPAM',
      description: 'on the domain',
    });
    expect(report.status).toBe(200);
    // An unknown or unverified domain is no domain: the main host's codes.
    expect((await aliceA.post('/api/domains', { host: 'unverified.example.org' })).status).toBe(
      201,
    );
    for (const domain of ['unverified.example.org', 'nowhere.example.org', '']) {
      expect((await a.fetch(`/api/code/team?redirect=false&domain=${domain}`)).status).toBe(404);
      expect((await a.fetch(`/api/code/home?redirect=false&domain=${domain}`)).status).toBe(200);
    }
  });
});
