import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/app';
import { useLogin } from '../support/login';
import { tryCreate } from '../support/shorts';

describe('blacklist administration', () => {
  const t = useTestApp({ AUTH_DEV_LOGIN: 'true', ADMIN_USERS: 'dev:admin' });
  const admin = useLogin(t, 'admin');

  async function addEntry(
    kind: string,
    value: string,
    reason: string | null = null,
  ): Promise<{ id: string; value: string }> {
    const id = randomUUID();
    const res = await admin.put(`/api/admin/entity/blacklist/${id}`, { kind, value, reason });
    expect(res.status).toBe(201);
    return (await res.json()) as { id: string; value: string };
  }

  const createStatus = (url: string) => tryCreate(t, { url });
  /** Each of `urls` is refused as blacklisted. */
  async function expectBlacklisted(urls: string[]): Promise<void> {
    for (const url of urls)
      expect(await createStatus(url), url).toEqual({ status: 400, detail: 'URL is blacklisted' });
  }

  it('stores hosts normalised and catches every spelling of a blacklisted host', async () => {
    const entry = await addEntry('host', 'https://user:pw@WWW.Evil.Example.:443/path', 'phishing');
    expect(entry.value).toBe('evil.example');
    const variants = [
      'https://evil.example/a',
      'https://EVIL.EXAMPLE/a',
      'https://Evil.Example./a',
      'https://www.evil.example/a',
      'https://WWW.EVIL.EXAMPLE./a',
      'https://evil.example:443/a',
      'http://evil.example:80/a',
      'https://sub.deep.evil.example/a',
    ];
    await expectBlacklisted(variants);
    // Spellings with a user name are refused before the blacklist is asked (no userinfo at all).
    for (const url of ['https://user:secret@evil.example/a', 'https://user@evil.example/a']) {
      expect(await createStatus(url), url).toEqual({ status: 400, detail: 'Validation failed' });
    }
    // Neighbours are not caught.
    expect((await createStatus('https://notevil.example/a')).status).toBe(201);
    expect((await createStatus('https://evil.example.org/a')).status).toBe(201);
  });

  it('compares IDN hosts as punycode, whichever way the entry or the URL is written', async () => {
    const unicode = await addEntry('host', 'Bücher.Example');
    expect(unicode.value).toBe('xn--bcher-kva.example');
    await expectBlacklisted([
      'https://bücher.example/x',
      'https://BÜCHER.example/x',
      'https://xn--bcher-kva.example/x',
      'https://www.bücher.example./x',
    ]);
    const puny = await addEntry('host', 'xn--mnchen-3ya.example');
    expect(puny.value).toBe('xn--mnchen-3ya.example');
    await expectBlacklisted([
      'https://münchen.example/',
      'https://MÜNCHEN.EXAMPLE/',
      'https://xn--mnchen-3ya.example/',
    ]);
  });

  it('matches regular expressions over the whole URL', async () => {
    await addEntry('regex', '/casino/');
    expect(await createStatus('https://fine.example/casino/x')).toEqual({
      status: 400,
      detail: 'URL is blacklisted',
    });
    expect((await createStatus('https://fine.example/music/x')).status).toBe(201);
  });

  it('refuses invalid and duplicate entries', async () => {
    const put = (body: Record<string, unknown>, id: string = randomUUID()) =>
      admin.put(`/api/admin/entity/blacklist/${id}`, body);
    const invalid: Array<[string, Record<string, unknown>]> = [
      ['a regex that does not compile', { kind: 'regex', value: '(' }],
      ['a host that is a URL', { kind: 'host', value: 'http://' }],
      ['no kind', { value: 'x.example' }],
      ['a value over 512 characters', { kind: 'regex', value: 'a'.repeat(513) }],
      [
        'a reason over 255 characters',
        { kind: 'host', value: 'z.example', reason: 'r'.repeat(256) },
      ],
    ];
    for (const [what, body] of invalid) expect((await put(body)).status, what).toBe(400);
    expect((await put({ kind: 'host', value: 'y.example' }, 'not-a-uuid')).status).toBe(400);
    const dup = await put({ kind: 'host', value: 'EVIL.example' });
    expect(dup.status).toBe(409);
    expect(((await dup.json()) as { detail: string }).detail).toBe('Entity already exists');
  });

  it('an entry added after a short was created sends its follow to the warning page; removing it restores', async () => {
    const res = await t.post('/api/code', { url: 'https://later.example/page' });
    expect(res.status).toBe(201);
    const { code } = (await res.json()) as { code: string };
    const follow = async (q = '') =>
      (await t.fetch(`/api/code/${code}${q}`)).headers.get('location');
    const followS = async () => (await t.fetch(`/s/${code}`)).headers.get('location');
    // Warm the follow cache first: the verdict must not stick.
    expect(await follow()).toBe('https://later.example/page');
    expect(await followS()).toBe('https://later.example/page');

    const entry = await addEntry('host', 'LATER.example');
    expect(await follow()).toBe(`/s/${code}/potentially-dangerous`);
    expect(await followS()).toBe(`/s/${code}/potentially-dangerous`);
    expect(await follow('?accept_danger=true')).toBe('https://later.example/page');
    const info = (await (await t.fetch(`/api/code/${code}?redirect=false`)).json()) as {
      dangers: boolean;
    };
    expect(info.dangers).toBe(true);

    // Edit the entry to another host: the short is free again; back: blocked again.
    const moved = await admin.put(`/api/admin/entity/blacklist/${entry.id}`, {
      value: 'elsewhere.example',
    });
    expect(moved.status).toBe(200);
    expect(await follow()).toBe('https://later.example/page');
    expect(
      (await admin.put(`/api/admin/entity/blacklist/${entry.id}`, { value: 'later.example' }))
        .status,
    ).toBe(200);
    expect(await follow()).toBe(`/s/${code}/potentially-dangerous`);

    const del = await admin.delete(`/api/admin/entity/blacklist/${entry.id}`);
    expect(del.status).toBe(204);
    expect(await follow()).toBe('https://later.example/page');
  });

  it('lists and searches entries', async () => {
    const res = await admin.post('/api/admin/entity/blacklist/search?sort=value,asc', {
      query_string: { query: 'kind:host AND value:*example' },
    });
    expect(res.status).toBe(200);
    const page = (await res.json()) as { content: Array<{ value: string; reason: string | null }> };
    expect(page.content.map((e) => e.value)).toEqual([
      'evil.example',
      'xn--bcher-kva.example',
      'xn--mnchen-3ya.example',
    ]);
    expect(page.content[0].reason).toBe('phishing');
  });
});
