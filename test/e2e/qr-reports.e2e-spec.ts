import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MetricsService } from '../../src/metrics/metrics.service';
import { createTestApp, type TestApp, useTestApp } from '../support/app';
import { loginAs, useLogin } from '../support/login';
import { expectProblem } from '../support/problem';
import { createCode, insertShort } from '../support/shorts';
import { pause } from '../support/wait';

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

/** QR renders counted by the app (url_shorter_qr_renders_total), by `kind|outcome`. */
async function qrRenders(t: TestApp): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const v of (await t.app.get(MetricsService).qrRenders.get()).values) {
    out[`${v.labels.kind}|${v.labels.outcome}`] = v.value;
  }
  return out;
}

async function pngOf(res: Response): Promise<{ width: number; text: string | null }> {
  const bytes = Buffer.from(await res.arrayBuffer());
  return { width: PNG.sync.read(bytes).width, text: decodePng(bytes) };
}

describe('QR codes of shorts', () => {
  const t = useTestApp({ BASE_URL: 'https://sho.rt' });

  const createQrCode = () => createCode(t, { url: 'https://example.com/qr' });

  it('the PNG decodes back to the short URL, at the default and at a chosen size', async () => {
    const code = await createQrCode();
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
    const code = await createQrCode();
    const res = await t.fetch(`/api/code/${code}/qr.svg`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
    const svg = await res.text();
    expect(svg).toContain('<path fill="#ffffff"');
    expect(svg).toMatch(/d="M4 4\.5h7/); // the finder pattern starts after 4 modules of quiet zone
    expect(decodeSvg(svg)).toBe(`https://sho.rt/s/${code}`);
  });

  it('caches publicly for a day with an ETag, and answers 304 to a matching If-None-Match', async () => {
    const code = await createQrCode();
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

  it('a PNG is rendered at the next of 128, 256, 512, 1024, 2048 px; sizes that round alike share one image', async () => {
    const code = await createQrCode();
    for (const [size, width] of [
      [129, 256],
      [300, 512],
      [1000, 1024],
      [1025, 2048],
    ]) {
      const res = await t.fetch(`/api/code/${code}/qr.png?size=${size}`);
      expect(res.status, String(size)).toBe(200);
      expect(await pngOf(res), String(size)).toEqual({ width, text: `https://sho.rt/s/${code}` });
    }
    const before = await qrRenders(t);
    const a = await t.fetch(`/api/code/${code}/qr.png?size=257`);
    const b = await t.fetch(`/api/code/${code}/qr.png`);
    expect(a.headers.get('etag')).toBe(b.headers.get('etag'));
    expect(Buffer.from(await a.arrayBuffer())).toEqual(Buffer.from(await b.arrayBuffer()));
    expect((await qrRenders(t))['png|rendered']).toBe(before['png|rendered']); // 512 was cached
  });

  it('20 parallel requests for one image (sizes 513–1024 all round to 1024) share one render', async () => {
    const code = await createQrCode();
    const before = (await qrRenders(t))['png|rendered'] ?? 0;
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        t.fetch(`/api/code/${code}/qr.png?size=${513 + i * 25}`),
      ),
    );
    expect(answers.map((r) => r.status)).toEqual(Array(20).fill(200));
    expect(new Set(answers.map((r) => r.headers.get('etag'))).size).toBe(1);
    expect(await pngOf(answers[19])).toEqual({ width: 1024, text: `https://sho.rt/s/${code}` });
    expect((await qrRenders(t))['png|rendered']).toBe(before + 1);
  });

  it('a flood of uncached renders fills the bounded queue: 503 qr_busy with Retry-After for the rest', async () => {
    const shorts = await Promise.all(Array.from({ length: 40 }, () => insertShort(t)));
    const answers = await Promise.all(
      shorts.map((s) => t.fetch(`/api/code/${s.code}/qr.png?size=1024`)),
    );
    const statuses = answers.map((r) => r.status);
    expect(
      statuses.every((s) => s === 200 || s === 503),
      String(statuses),
    ).toBe(true);
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(2);
    const busy = answers.filter((r) => r.status === 503);
    expect(busy.length).toBeGreaterThanOrEqual(1);
    const p = await expectProblem(busy[0], 503);
    expect(p.errorKey).toBe('qr_busy');
    expect(Number(busy[0].headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect((await qrRenders(t))['png|busy']).toBeGreaterThanOrEqual(busy.length);
    // Once the queue has drained, a refused image renders.
    const again = await t.fetch(new URL(busy[0].url).pathname + '?size=1024');
    expect(again.status).toBe(200);
  });

  it('rendering holds the event loop for no follow: while 10 uncached 2048 px PNGs render, follows every 20 ms answer within 250 ms', async () => {
    const target = await insertShort(t);
    const follow = async () => {
      const started = performance.now();
      const res = await t.fetch(`/s/${target.code}`);
      expect(res.status).toBe(302);
      return performance.now() - started;
    };
    await follow(); // warm the follow path and its cache
    const shorts = await Promise.all(Array.from({ length: 10 }, () => insertShort(t)));
    let rendering = true;
    const renders = Promise.all(
      shorts.map((s) => t.fetch(`/api/code/${s.code}/qr.png?size=2048`)),
    ).finally(() => (rendering = false));
    const latencies: number[] = [];
    while (rendering) {
      latencies.push(await follow());
      await pause(20); // one sample every 20 ms while the renders run
    }
    const answers = await renders;
    expect(answers.map((r) => r.status)).toEqual(Array(10).fill(200));
    expect(await pngOf(answers[9])).toEqual({
      width: 2048,
      text: `https://sho.rt/s/${shorts[9].code}`,
    });
    expect(latencies.length).toBeGreaterThanOrEqual(5);
    expect(Math.max(...latencies), latencies.map(Math.round).join(' ')).toBeLessThan(250);
  });

  it('404 problem for unknown, expired and used-up shorts; 400 for a bad size', async () => {
    await expectProblem(await t.fetch('/api/code/doesNotExist9/qr.png'), 404);
    const expired = await insertShort(t, { expireAt: new Date(Date.now() - 1000) });
    await expectProblem(await t.fetch(`/api/code/${expired.code}/qr.svg`), 404);
    const usedUp = await insertShort(t, { maxUses: 1, uses: 1 });
    await expectProblem(await t.fetch(`/api/code/${usedUp.code}/qr.png`), 404);
    const code = await createQrCode();
    for (const size of ['127', '2049', 'abc', '-5', '512.5']) {
      const p = await expectProblem(await t.fetch(`/api/code/${code}/qr.png?size=${size}`), 400);
      expect(p.fieldErrors?.size, size).toBeDefined();
    }
  });
});

/** CONTRACT "Limits": LIMIT_QR_RENDER counts renders per client address; cached images are free. */
describe('QR renders per client (LIMIT_QR_RENDER)', () => {
  let t: TestApp;

  beforeAll(async () => {
    // The test sends X-Forwarded-For from loopback, so each case is a client of its own.
    t = await createTestApp({ LIMIT_QR_RENDER: '3/min', TRUST_PROXY: 'loopback' });
  });
  afterAll(async () => {
    await t?.close();
  });

  const from = (client: string, path: string) =>
    t.fetch(path, { headers: { 'x-forwarded-for': client } });

  it('the 4th uncached render of a client is 429 rate_limited; cached images still answer 200, other clients render', async () => {
    const { code } = await insertShort(t);
    const client = '198.51.100.7';
    for (const path of ['qr.svg', 'qr.png', 'qr.png?size=128']) {
      expect((await from(client, `/api/code/${code}/${path}`)).status, path).toBe(200);
    }
    const refused = await from(client, `/api/code/${code}/qr.png?size=2048`);
    const p = await expectProblem(refused, 429);
    expect(p).toMatchObject({ detail: 'Too many requests', errorKey: 'rate_limited' });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    // Cached: the same images, and sizes that round to a cached one.
    for (const path of ['qr.svg', 'qr.png', 'qr.png?size=300', 'qr.png?size=128']) {
      expect((await from(client, `/api/code/${code}/${path}`)).status, path).toBe(200);
    }
    expect((await from('198.51.100.8', `/api/code/${code}/qr.png?size=2048`)).status).toBe(200);
    // …and now that it is cached, for the limited client too.
    expect((await from(client, `/api/code/${code}/qr.png?size=2048`)).status).toBe(200);
  });

  it('joining a render under way is free: 20 parallel requests for one image from a client with 3 renders left', async () => {
    const { code } = await insertShort(t);
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => from('198.51.100.9', `/api/code/${code}/qr.png?size=1024`)),
    );
    expect(answers.map((r) => r.status)).toEqual(Array(20).fill(200));
    for (const path of ['qr.svg', 'qr.png']) {
      expect((await from('198.51.100.9', `/api/code/${code}/${path}`)).status, path).toBe(200);
    }
    await expectProblem(await from('198.51.100.9', `/api/code/${code}/qr.png?size=128`), 429);
  });
});

describe('reports seen by owners (GET /api/code/{id}/reports)', () => {
  const t = useTestApp({
    AUTH_DEV_LOGIN: 'true',
    ADMIN_USERS: 'dev:admin',
    REPORT_THRESHOLD: '50',
  });
  const alice = useLogin(t, 'alice');
  const bob = useLogin(t, 'bob');
  const admin = useLogin(t, 'admin');

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
      await pause(5); // distinct createdAt (time passes on purpose)
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
