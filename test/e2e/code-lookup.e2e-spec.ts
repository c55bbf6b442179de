import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/app';
import { useLogin } from '../support/login';
import { createShort } from '../support/shorts';

/**
 * A code is looked up only as it is written: MariaDB's collations compare with PAD SPACE, so
 * `'abc '` equals `'abc'` in SQL. Codes never hold a space (custom codes are 3 to 64 of A-Z, a-z,
 * 0-9, `_` and `-`; generated ones a subset), so a code outside that alphabet is not found on any
 * lookup path, before any query. Run on every engine; the bug showed on MariaDB only.
 */
describe('a code with trailing spaces or other characters outside the alphabet is not found', () => {
  const t = useTestApp({ AUTH_DEV_LOGIN: 'true' });
  const alice = useLogin(t, 'alice');

  it('info, follow (both routes), POSTed follow, metadata, QR and report', async () => {
    const s = await createShort(alice, { url: 'https://example.com/pad-space', code: 'padspace' });
    for (const suffix of ['', ' ', '  ', '\t']) {
      const code = encodeURIComponent(`${s.code}${suffix}`);
      const found = suffix === '';
      const info = await t.fetch(`/api/code/${code}?redirect=false`);
      expect(info.status, `info ${JSON.stringify(suffix)}`).toBe(found ? 200 : 404);
      const wanted = found ? 'https://example.com/pad-space' : `/s/${code}/not-found`;
      expect((await t.fetch(`/s/${code}`)).headers.get('location')).toBe(wanted);
      expect((await t.fetch(`/api/code/${code}`)).headers.get('location')).toBe(wanted);
      const posted = await t.fetch(`/s/${code}`, {
        method: 'POST',
        headers: { origin: t.url, 'content-type': 'application/x-www-form-urlencoded' },
        body: '',
      });
      expect(posted.headers.get('location')).toBe(wanted);
      expect((await t.fetch(`/api/code/${code}/qr.svg`)).status).toBe(found ? 200 : 404);
      if (!found) {
        // (The found short's metadata would fetch its target: only the refusal is asked here.)
        expect((await t.fetch(`/api/code/${code}/metadata`)).status).toBe(404);
        const report = await alice.post(`/api/code/${code}/report`, {
          reason: 'SPAM',
          description: 'a report of a code with a space',
        });
        expect(report.status, await report.clone().text()).toBe(404);
      }
    }
    // Upper and lower case stay distinct codes (the alphabet check changes nothing there).
    expect((await t.fetch(`/api/code/PADSPACE?redirect=false`)).status).toBe(404);
  });
});
