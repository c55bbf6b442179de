import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app';
import { loginAs, type LoggedIn } from '../support/login';
import { expectProblem } from '../support/problem';
import { insertShort } from '../support/shorts';

/** The text of a QR code in a PNG. */
function decodePng(bytes: Buffer): string | null {
  const png = PNG.sync.read(bytes);
  return jsQR(new Uint8ClampedArray(png.data), png.width, png.height)?.data ?? null;
}

/**
 * The text of a QR code in the SVG the server writes: a white background and one stroked path of
 * horizontal runs (`M x y.5 h n m dx dy …`, one unit per module), drawn here at 8 px per module.
 */
function decodeSvg(svg: string): string | null {
  const viewBox = /viewBox="0 0 (\d+) (\d+)"/.exec(svg);
  const path = /<path stroke="#000000" d="([^"]+)"/.exec(svg);
  if (!viewBox || !path) return null;
  const modules = Number(viewBox[1]);
  const scale = 8;
  const size = modules * scale;
  const pixels = new Uint8ClampedArray(size * size * 4).fill(255);
  let x = 0;
  let y = 0;
  for (const [, op, args] of path[1].matchAll(/([MmHh])([^MmHh]*)/g)) {
    const n = args
      .trim()
      .split(/[\s,]+/)
      .map(Number);
    if (op === 'M') [x, y] = n;
    else if (op === 'm') [x, y] = [x + n[0], y + n[1]];
    else {
      const to = op === 'h' ? x + n[0] : n[0];
      const row = Math.floor(y);
      for (let px = x * scale; px < to * scale; px++) {
        for (let py = row * scale; py < (row + 1) * scale; py++) {
          pixels.fill(0, (py * size + px) * 4, (py * size + px) * 4 + 3);
        }
      }
      x = to;
    }
  }
  return jsQR(pixels, size, size)?.data ?? null;
}

describe('QR codes of shorts', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ BASE_URL: 'https://sho.rt' });
  });
  afterAll(async () => {
    await t?.close();
  });

  async function createCode(): Promise<string> {
    const res = await t.post('/api/code', { url: 'https://example.com/qr' });
    return ((await res.json()) as { code: string }).code;
  }

  it('the PNG decodes back to the short URL, at the default and at a chosen size', async () => {
    const code = await createCode();
    const res = await t.fetch(`/api/code/${code}/qr.png`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(PNG.sync.read(bytes).width).toBe(512);
    expect(decodePng(bytes)).toBe(`https://sho.rt/s/${code}`);
    for (const size of [128, 2048]) {
      const sized = Buffer.from(
        await (await t.fetch(`/api/code/${code}/qr.png?size=${size}`)).arrayBuffer(),
      );
      expect(PNG.sync.read(sized).width).toBe(size);
      expect(decodePng(sized)).toBe(`https://sho.rt/s/${code}`);
    }
  });

  it('the SVG decodes back to the short URL: dark modules on white with a quiet zone', async () => {
    const code = await createCode();
    const res = await t.fetch(`/api/code/${code}/qr.svg`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
    const svg = await res.text();
    expect(svg).toContain('<path fill="#ffffff"');
    expect(svg).toMatch(/d="M4 4\.5h7/); // the finder pattern starts after 4 modules of quiet zone
    expect(decodeSvg(svg)).toBe(`https://sho.rt/s/${code}`);
  });

  it('caches publicly for a day with an ETag, and answers 304 to a matching If-None-Match', async () => {
    const code = await createCode();
    const res = await t.fetch(`/api/code/${code}/qr.svg`);
    expect(res.headers.get('cache-control')).toBe('public, max-age=86400');
    const etag = res.headers.get('etag');
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await t.fetch(`/api/code/${code}/qr.svg`, {
      headers: { 'if-none-match': etag! },
    });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    const png = await t.fetch(`/api/code/${code}/qr.png`);
    expect(png.headers.get('etag')).not.toBe(etag);
  });

  it('404 problem for unknown, expired and used-up shorts; 400 for a bad size', async () => {
    await expectProblem(await t.fetch('/api/code/doesNotExist9/qr.png'), 404);
    const expired = await insertShort(t, { expireAt: new Date(Date.now() - 1000) });
    await expectProblem(await t.fetch(`/api/code/${expired.code}/qr.svg`), 404);
    const usedUp = await insertShort(t, { maxUses: 1, uses: 1 });
    await expectProblem(await t.fetch(`/api/code/${usedUp.code}/qr.png`), 404);
    const code = await createCode();
    for (const size of ['127', '2049', 'abc', '-5', '512.5']) {
      const p = await expectProblem(await t.fetch(`/api/code/${code}/qr.png?size=${size}`), 400);
      expect(p.fieldErrors?.size, size).toBeDefined();
    }
  });
});

describe('reports seen by owners (GET /api/code/{id}/reports)', () => {
  let t: TestApp;
  let alice: LoggedIn;
  let bob: LoggedIn;
  let admin: LoggedIn;

  beforeAll(async () => {
    t = await createTestApp({
      AUTH_DEV_LOGIN: 'true',
      ADMIN_USERS: 'dev:admin',
      REPORT_THRESHOLD: '50',
    });
    alice = await loginAs(t, 'alice');
    bob = await loginAs(t, 'bob');
    admin = await loginAs(t, 'admin');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('the owner and admins see reason, description, date and state, newest first, never the reporter', async () => {
    const created = await alice.post('/api/code', { url: 'https://example.com/reported' });
    const { code } = (await created.json()) as { code: string };
    const { id } = (await (await alice.fetch(`/api/code/${code}?redirect=false`)).json()) as {
      id: string;
    };
    const empty = await alice.fetch(`/api/code/${id}/reports`);
    expect(await empty.json()).toEqual([]);

    const reporters = [bob, await loginAs(t, 'carol')];
    const texts = ['<script>alert(1)</script> Spam!', 'Phishing-Seite'];
    for (const [i, r] of reporters.entries()) {
      const res = await r.post(`/api/code/${code}/report`, {
        reason: i === 0 ? 'SPAM' : 'ILLEGAL',
        description: texts[i],
      });
      expect(res.status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 5)); // distinct createdAt
    }
    for (const viewer of [alice, admin]) {
      const res = await viewer.fetch(`/api/code/${id}/reports`);
      expect(res.status).toBe(200);
      const list = (await res.json()) as Array<Record<string, unknown>>;
      expect(list.map((r) => r.description)).toEqual([texts[1], texts[0]]);
      expect(list[1]).toMatchObject({ reason: 'SPAM', state: expect.any(String) });
      expect(Object.keys(list[0]).sort()).toEqual(['createdAt', 'description', 'reason', 'state']);
      const text = JSON.stringify(list);
      for (const r of reporters) expect(text).not.toContain(r.userId);
      expect(text).not.toMatch(/bob|carol/);
    }
  });

  it('others 403, anonymous 401, unknown 404', async () => {
    const created = await alice.post('/api/code', { url: 'https://example.com/private-reports' });
    const { code } = (await created.json()) as { code: string };
    const { id } = (await (await alice.fetch(`/api/code/${code}?redirect=false`)).json()) as {
      id: string;
    };
    await expectProblem(await bob.fetch(`/api/code/${id}/reports`), 403);
    await expectProblem(await t.fetch(`/api/code/${id}/reports`), 401);
    await expectProblem(await alice.fetch(`/api/code/${randomUUID()}/reports`), 404);
  });

  it('`reports`, `export`, `import` and `statistics` are reserved and cannot be chosen as codes', async () => {
    for (const code of ['export', 'import', 'reports', 'statistics']) {
      const p = await expectProblem(
        await alice.post('/api/code', { url: 'https://example.com', code }),
        400,
      );
      expect(p.fieldErrors?.code, code).toBe('is reserved');
    }
  });
});
