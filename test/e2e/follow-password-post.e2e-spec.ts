import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app';
import { FollowService } from '../../src/follow/follow.service';
import { ShortEntity } from '../../src/shorts/short.entity';
import { loginAs } from '../support/login';
import { expectProblem } from '../support/problem';
import { createCode } from '../support/shorts';

/**
 * `POST /s/{code}`: the password page sends the password in the body (not in the query, which
 * lands in history and proxy logs), with the rules of `GET ?password=`: wrong, lockout after
 * PASSWORD_MAX_TRIES, and refused cross-site as the CSRF rules say.
 */
describe('following with the password in a POST body', () => {
  let t: TestApp;
  const password = 'p0st-body-secret';

  beforeAll(async () => {
    t = await createTestApp({ PASSWORD_MAX_TRIES: '3', AUTH_DEV_LOGIN: 'true' });
  });
  afterAll(async () => {
    await t?.close();
  });

  const create = (url: string, pw = password) => createCode(t, { url, password: pw });

  /** The password page's form: form-encoded, same origin. */
  function postForm(code: string, pw: string | null, headers: Record<string, string> = {}) {
    const body = pw === null ? '' : new URLSearchParams({ password: pw }).toString();
    return t.fetch(`/s/${code}`, {
      method: 'POST',
      headers: {
        origin: t.url,
        'content-type': 'application/x-www-form-urlencoded',
        ...headers,
      },
      body,
    });
  }

  it('lets the right password through with 303 to the target, no-store and no-referrer', async () => {
    const code = await create('https://example.com/post-target');
    const res = await postForm(code, password);
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('https://example.com/post-target');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
  });

  it('takes JSON as well', async () => {
    const code = await create('https://example.com/post-json');
    const res = await t.fetch(`/s/${code}`, {
      method: 'POST',
      headers: { origin: t.url, 'content-type': 'application/json' },
      body: JSON.stringify({ password }),
    });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('https://example.com/post-json');
  });

  it('sends a wrong or missing password back to the password page', async () => {
    const code = await create('https://example.com/post-wrong');
    const wrong = await postForm(code, 'falsch');
    expect(wrong.status).toBe(303);
    expect(wrong.headers.get('location')).toBe(`/s/${code}/password-required?wrong=true`);
    const missing = await postForm(code, null);
    expect(missing.headers.get('location')).toBe(`/s/${code}/password-required`);
    const unknown = await postForm('gibtsnicht', password);
    expect(unknown.headers.get('location')).toBe('/s/gibtsnicht/not-found');
  });

  it('locks a client out after PASSWORD_MAX_TRIES wrong tries, counted with GET ?password=', async () => {
    const code = await create('https://example.com/post-locked');
    expect((await postForm(code, 'bad1')).headers.get('location')).toBe(
      `/s/${code}/password-required?wrong=true`,
    );
    expect((await t.fetch(`/s/${code}?password=bad2`)).headers.get('location')).toBe(
      `/s/${code}/password-required?wrong=true`,
    );
    expect((await postForm(code, 'bad3')).headers.get('location')).toBe(
      `/s/${code}/password-required?wrong=true`,
    );
    for (const res of [await postForm(code, 'bad4'), await postForm(code, password)]) {
      expect(res.status).toBe(303);
      expect(res.headers.get('location')).toBe(`/s/${code}/password-required?locked=true`);
    }
    expect((await t.fetch(`/s/${code}?password=${password}`)).headers.get('location')).toBe(
      `/s/${code}/password-required?locked=true`,
    );
  });

  it('a dangerous short with a password: the accepted warning is kept through the password step', async () => {
    const code = await create('https://example.com/post-danger');
    await t.ds.getRepository(ShortEntity).update({ code }, { dangerous: true });
    t.app.get(FollowService).invalidate(code);
    const loc = (res: Response) => res.headers.get('location');
    expect(loc(await t.fetch(`/s/${code}`))).toBe(`/s/${code}/potentially-dangerous`);
    // The warning's button: on to the password page, which keeps the acceptance.
    for (const path of [`/s/${code}?accept_danger=true`, `/api/code/${code}?accept_danger=true`]) {
      expect(loc(await t.fetch(path)), path).toBe(
        `/s/${code}/password-required?accept_danger=true`,
      );
    }
    // The password page's form posts to /s/{code}?accept_danger=true: to the target.
    const post = (pw: string) =>
      t.fetch(`/s/${code}?accept_danger=true`, {
        method: 'POST',
        headers: { origin: t.url, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ password: pw }).toString(),
      });
    const wrong = await post('falsch');
    expect(wrong.status).toBe(303);
    expect(loc(wrong)).toBe(`/s/${code}/password-required?wrong=true&accept_danger=true`);
    const right = await post(password);
    expect(right.status).toBe(303);
    expect(loc(right)).toBe('https://example.com/post-danger');
    // The password in the query, on both follow routes.
    for (const path of [`/s/${code}`, `/api/code/${code}`]) {
      expect(loc(await t.fetch(`${path}?accept_danger=true&password=${password}`)), path).toBe(
        'https://example.com/post-danger',
      );
    }
    // Without the acceptance, the right password still meets the warning first.
    expect(loc(await t.fetch(`/s/${code}?password=${password}`))).toBe(
      `/s/${code}/potentially-dangerous`,
    );
  });

  it('refuses cross-site posts (403 cross_site_refused) without spending a try', async () => {
    const code = await create('https://example.com/post-csrf');
    const refusals: Record<string, string>[] = [
      { origin: 'https://evil.example' },
      { origin: 'null' },
      { origin: '', 'sec-fetch-site': 'cross-site' },
      { origin: '', 'sec-fetch-site': 'same-site' },
    ];
    for (const headers of [...refusals, ...refusals, ...refusals]) {
      const res = await postForm(code, 'falsch', headers);
      expect(res.status, JSON.stringify(headers)).toBe(403);
      expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(((await res.json()) as { errorKey: string }).errorKey).toBe('cross_site_refused');
    }
    // Twelve refusals later the right password still works: none of them counted as a try.
    const ok = await postForm(code, password, { origin: '', 'sec-fetch-site': 'same-origin' });
    expect(ok.status).toBe(303);
    expect(ok.headers.get('location')).toBe('https://example.com/post-csrf');
  });

  it('passes a same-origin form with the session cookie (a follow reads no session)', async () => {
    const user = await loginAs(t, 'post-follower');
    const code = await create('https://example.com/post-session');
    const res = await postForm(code, password, { cookie: user.cookie });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('https://example.com/post-session');
  });

  it('accepts a script without Origin and Sec-Fetch-Site (no browser, no CSRF)', async () => {
    const code = await create('https://example.com/post-script');
    const res = await postForm(code, password, { origin: '' });
    expect(res.headers.get('location')).toBe('https://example.com/post-script');
  });

  it('refuses other content types (415) and oversized bodies (413)', async () => {
    const code = await create('https://example.com/post-types');
    const plain = await postForm(code, password, { 'content-type': 'text/plain' });
    expect(plain.status).toBe(415);
    expect(((await plain.json()) as { errorKey: string }).errorKey).toBe(
      'content_type_unsupported',
    );
    const big = await t.fetch(`/s/${code}`, {
      method: 'POST',
      headers: { origin: t.url, 'content-type': 'application/x-www-form-urlencoded' },
      body: `password=${'x'.repeat(20_000)}`,
    });
    expect(big.status).toBe(413);
    const badJson = await t.fetch(`/s/${code}`, {
      method: 'POST',
      headers: { origin: t.url, 'content-type': 'application/json' },
      body: '{"password": 42}',
    });
    expect(badJson.status).toBe(400);
    // A JSON null is refused as the schema refuses it (it once answered as a missing password).
    const nullJson = await t.fetch(`/s/${code}`, {
      method: 'POST',
      headers: { origin: t.url, 'content-type': 'application/json' },
      body: '{"password": null}',
    });
    const refused = await expectProblem(nullJson, 400);
    expect(refused.fieldErrors).toHaveProperty('password');
  });
});
