import { parse } from 'csv-parse/sync';
import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/app';
import { type LoggedIn, loginAs, useLogin } from '../support/login';
import { expectProblem } from '../support/problem';
import { createCode, createShort } from '../support/shorts';

interface Problem {
  errorKey?: string;
  fieldErrors?: Record<string, string>;
  fieldErrorKeys?: Record<string, string>;
  fieldErrorPaths?: Record<string, Array<string | number>>;
}
interface QrStyle {
  fg: string;
  bg: string;
  ec: string;
  margin: number;
}
interface Exported {
  code: string;
  qrStyle: string | null;
}

/** The colours of an SVG the server writes: its background's fill and its modules' stroke. */
function svgColours(svg: string): { bg?: string; fg?: string } {
  return {
    bg: /<path fill="#([0-9a-f]{6})"/.exec(svg)?.[1],
    fg: /<path stroke="#([0-9a-f]{6})"/.exec(svg)?.[1],
  };
}

/** The width of an SVG's code in modules with its quiet zone, and where its first run starts. */
function svgGeometry(svg: string): { modules: number; start: string } {
  return {
    modules: Number(/viewBox="0 0 (\d+) /.exec(svg)?.[1]),
    start: /d="M(\d+ \d+)\.5/.exec(svg)?.[1] ?? '',
  };
}

/**
 * QR styles (CONTRACT "Marketing links", QR styles): `fg`, `bg`, `ec` and `margin` on `qr.svg`
 * and `qr.png` (the contrast rule, malformed values), a short's stored `qrStyle` (create, edit,
 * who sees it, its refusals) used where the query names no part and overridden part by part,
 * the export and import of it, and a PNG in brand colours that still scans.
 */
describe('QR styles', () => {
  const t = useTestApp({ AUTH_DEV_LOGIN: 'true' });
  const alice = useLogin(t, 'alice');
  const bob = useLogin(t, 'bob');

  const svgOf = async (code: string, query = '') => {
    const res = await t.fetch(`/api/code/${code}/qr.svg${query}`);
    expect(res.status, await res.clone().text()).toBe(200);
    return res.text();
  };
  const infoOf = async (u: LoggedIn, code: string) =>
    (await (await u.fetch(`/api/code/${code}?redirect=false`)).json()) as {
      qrStyle?: QrStyle | null;
    };

  it('the query styles the SVG: colours, error correction and quiet zone', async () => {
    const code = await createCode(t, { url: 'https://example.com/qr-style' });
    const plain = await svgOf(code);
    expect(svgColours(plain)).toEqual({ bg: 'ffffff', fg: '000000' });
    expect(svgGeometry(plain).start).toBe('4 4');

    const styled = await svgOf(code, '?fg=1D3557&bg=f1faee&ec=L&margin=0');
    expect(svgColours(styled)).toEqual({ bg: 'f1faee', fg: '1d3557' });
    expect(svgGeometry(styled).start).toBe('0 0');
    const l = svgGeometry(styled).modules;
    // The same link with more error correction needs a larger code (and 8 modules of margin).
    const h = svgGeometry(await svgOf(code, '?fg=1d3557&bg=f1faee&ec=H&margin=8')).modules;
    expect(h - 16).toBeGreaterThan(l);
    // Light modules on a dark background pass the rule too (the ratio has no order).
    expect(svgColours(await svgOf(code, '?fg=ffffff&bg=1d3557'))).toEqual({
      bg: '1d3557',
      fg: 'ffffff',
    });
  });

  it('refuses colours of too little contrast (qr_contrast) and malformed values (field_invalid)', async () => {
    const code = await createCode(t, { url: 'https://example.com/qr-refused' });
    for (const kind of ['qr.svg', 'qr.png']) {
      const low = await expectProblem(
        await t.fetch(`/api/code/${code}/${kind}?fg=959595&bg=ffffff`),
        400,
      );
      expect(low.errorKey).toBe('qr_contrast');
      expect(low.detail).toMatch(/at least 3:1/);
      // One colour alone is checked against the other's default (black modules).
      expect(
        (await expectProblem(await t.fetch(`/api/code/${code}/${kind}?bg=101010`), 400)).errorKey,
      ).toBe('qr_contrast');
    }
    const malformed: Array<[string, string]> = [
      ['fg=12345', 'fg'],
      ['fg=1234567', 'fg'],
      ['fg=%231d3557', 'fg'],
      ['bg=gggggg', 'bg'],
      ['ec=X', 'ec'],
      ['ec=m', 'ec'],
      ['margin=9', 'margin'],
      ['margin=-1', 'margin'],
      ['margin=1.5', 'margin'],
      ['margin=four', 'margin'],
    ];
    for (const [query, field] of malformed) {
      for (const kind of ['qr.svg', 'qr.png']) {
        const res = await t.fetch(`/api/code/${code}/${kind}?${query}`);
        const body = (await expectProblem(res, 400)) as Problem;
        expect(body.errorKey, query).toBe('validation_failed');
        expect(body.fieldErrorKeys, query).toEqual({ [field]: 'field_invalid' });
      }
    }
    // The limits' ends are taken.
    for (const query of ['margin=0', 'margin=8', 'ec=Q', 'fg=ABCDEF&bg=000000']) {
      expect((await t.fetch(`/api/code/${code}/qr.svg?${query}`)).status, query).toBe(200);
    }
  });

  it('a stored qrStyle (# optional, normalised) is used where the query names no part, and overridden part by part', async () => {
    const s = await createShort(alice, {
      url: 'https://example.com/brand',
      qrStyle: { fg: '#1D3557', bg: 'F1FAEE', ec: 'Q', margin: 2 },
    });
    expect((await infoOf(alice, s.code)).qrStyle).toEqual({
      fg: '1d3557',
      bg: 'f1faee',
      ec: 'Q',
      margin: 2,
    });
    expect(await t.query('SELECT qr_style FROM shorts WHERE id = ?', [s.id])).toEqual([
      { qr_style: '1d3557,f1faee,Q,2' },
    ]);
    // Others do not see it (a field of its owner), but its QR code is everybody's.
    expect(Object.hasOwn(await infoOf(bob, s.code), 'qrStyle')).toBe(false);

    const stored = await svgOf(s.code);
    expect(svgColours(stored)).toEqual({ bg: 'f1faee', fg: '1d3557' });
    expect(svgGeometry(stored).start).toBe('2 2');
    // The owner may change it: an image that relies on it is revalidated, not kept for a day.
    const relying = await t.fetch(`/api/code/${s.code}/qr.svg`);
    expect(relying.headers.get('cache-control')).toBe('public, no-cache');
    const whole = await t.fetch(`/api/code/${s.code}/qr.svg?fg=000000&bg=ffffff&ec=M&margin=4`);
    expect(whole.headers.get('cache-control')).toBe('public, max-age=86400');
    expect(svgColours(await whole.text())).toEqual({ bg: 'ffffff', fg: '000000' });

    // A part the query names wins; the others stay the stored ones.
    const fgOnly = await svgOf(s.code, '?fg=000000');
    expect(svgColours(fgOnly)).toEqual({ bg: 'f1faee', fg: '000000' });
    expect(svgGeometry(fgOnly).start).toBe('2 2');
    expect(svgGeometry(await svgOf(s.code, '?margin=0')).start).toBe('0 0');
    // The contrast is checked on the style the image would have: a query's bg against the stored fg.
    const clash = await expectProblem(await t.fetch(`/api/code/${s.code}/qr.svg?bg=1d3557`), 400);
    expect(clash.errorKey).toBe('qr_contrast');

    // Changed (missing parts are the default's), then removed: the default again.
    const patched = await alice.patch(`/api/code/${s.id}`, { qrStyle: { fg: '#e63946' } });
    expect(patched.status, await patched.clone().text()).toBe(200);
    expect((await infoOf(alice, s.code)).qrStyle).toEqual({
      fg: 'e63946',
      bg: 'ffffff',
      ec: 'M',
      margin: 4,
    });
    expect(svgColours(await svgOf(s.code))).toEqual({ bg: 'ffffff', fg: 'e63946' });
    expect((await alice.patch(`/api/code/${s.id}`, { qrStyle: null })).status).toBe(200);
    expect((await infoOf(alice, s.code)).qrStyle).toBeNull();
    expect(svgColours(await svgOf(s.code))).toEqual({ bg: 'ffffff', fg: '000000' });
  });

  it('refuses a qrStyle that is malformed, of too little contrast, or not logged in', async () => {
    const refusals: Array<[unknown, string, Array<string | number> | undefined]> = [
      [{ fg: '#eeeeee' }, 'qr_contrast', undefined],
      [{ fg: '#12345' }, 'field_invalid', ['qrStyle', 'fg']],
      [{ bg: 'white' }, 'field_invalid', ['qrStyle', 'bg']],
      [{ ec: 'X' }, 'field_invalid', ['qrStyle', 'ec']],
      [{ margin: 9 }, 'field_invalid', ['qrStyle', 'margin']],
      [{ margin: '4' }, 'field_invalid', ['qrStyle', 'margin']],
      [{ size: 512 }, 'field_invalid', undefined],
      ['1d3557,f1faee,M,4', 'field_invalid', undefined],
      [['1d3557'], 'field_invalid', undefined],
    ];
    for (const [qrStyle, key, path] of refusals) {
      const res = await alice.post('/api/code', { url: 'https://example.com/refused', qrStyle });
      const body = (await expectProblem(res, 400)) as Problem;
      expect(body.fieldErrorKeys, JSON.stringify(qrStyle)).toEqual({ qrStyle: key });
      expect(body.fieldErrorPaths?.qrStyle, JSON.stringify(qrStyle)).toEqual(path);
    }
    const s = await createShort(alice, { url: 'https://example.com/patch-refused' });
    const patched = await alice.patch(`/api/code/${s.id}`, { qrStyle: { bg: '#0a0a0a' } });
    expect(((await expectProblem(patched, 400)) as Problem).fieldErrorKeys).toEqual({
      qrStyle: 'qr_contrast',
    });
    const anonymous = await t.fetch('/api/code', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ url: 'https://example.com/anon', qrStyle: { fg: '1d3557' } }),
    });
    expect(((await expectProblem(anonymous, 400)) as Problem).fieldErrorKeys).toEqual({
      qrStyle: 'field_not_allowed',
    });
  });

  it('the export carries qrStyle as fg,bg,ec,margin; an import reads it back (and objects, JSON text)', async () => {
    const carol = await loginAs(t, 'carol');
    const styled = await createShort(carol, {
      url: 'https://example.com/export-styled',
      code: 'qr-export-styled',
      qrStyle: { fg: '1d3557', bg: 'f1faee', ec: 'H', margin: 1 },
    });
    await createShort(carol, { url: 'https://example.com/export-plain', code: 'qr-export-plain' });
    const json = (await (await carol.fetch('/api/code/export?format=json')).json()) as Exported[];
    expect(Object.fromEntries(json.map((r) => [r.code, r.qrStyle]))).toEqual({
      'qr-export-styled': '1d3557,f1faee,H,1',
      'qr-export-plain': null,
    });
    const csv = await (await carol.fetch('/api/code/export?format=csv')).text();
    const rows = parse(csv, { columns: true }) as Array<Record<string, string>>;
    expect(rows.find((r) => r.code === 'qr-export-styled')?.qrStyle).toBe('1d3557,f1faee,H,1');

    await t.query('DELETE FROM shorts WHERE owner_id = ?', [carol.userId]);
    const imported = await carol.post('/api/code/import', { csv });
    expect(await imported.json()).toEqual({ created: 2, skipped: [] });
    const again = (await (await carol.fetch('/api/code/export?format=json')).json()) as Exported[];
    expect(Object.fromEntries(again.map((r) => [r.code, r.qrStyle]))).toEqual({
      'qr-export-styled': '1d3557,f1faee,H,1',
      'qr-export-plain': null,
    });
    expect(styled.code).toBe('qr-export-styled');
    expect(svgColours(await svgOf('qr-export-styled'))).toEqual({ bg: 'f1faee', fg: '1d3557' });

    // `{rows}` may carry the style as the answer shows it, or as JSON text; a bad one is skipped.
    const res = await carol.post('/api/code/import', {
      rows: [
        { url: 'https://example.com/r1', code: 'qr-row-object', qrStyle: { fg: '#2A9D8F' } },
        {
          url: 'https://example.com/r2',
          code: 'qr-row-json',
          qrStyle: '{"bg":"264653","fg":"e9c46a"}',
        },
        { url: 'https://example.com/r3', code: 'qr-row-low', qrStyle: 'eeeeee,ffffff,M,4' },
        { url: 'https://example.com/r4', code: 'qr-row-bad', qrStyle: 'eeeeee,ffffff' },
      ],
    });
    const result = (await res.json()) as {
      created: number;
      skipped: Array<{ code: string; errorKey: string }>;
    };
    expect(result.created).toBe(2);
    expect(result.skipped.map((s) => [s.code, s.errorKey])).toEqual([
      ['qr-row-low', 'qr_contrast'],
      ['qr-row-bad', 'field_invalid'],
    ]);
    const rowsNow = (await (
      await carol.fetch('/api/code/export?format=json')
    ).json()) as Exported[];
    const byCode = Object.fromEntries(rowsNow.map((r) => [r.code, r.qrStyle]));
    expect(byCode['qr-row-object']).toBe('2a9d8f,ffffff,M,4');
    expect(byCode['qr-row-json']).toBe('e9c46a,264653,M,4');
  });

  it('a PNG in brand colours decodes to the short link and its pixels are those colours', async () => {
    const { code, shortUrl } = await createShort(t, { url: 'https://example.com/brand-png' });
    const res = await t.fetch(`/api/code/${code}/qr.png?size=256&fg=1d3557&bg=f1faee&ec=H`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    const png = PNG.sync.read(Buffer.from(await res.arrayBuffer()));
    expect(png.width).toBe(256);
    expect(shortUrl).toMatch(new RegExp(`^http://.+/s/${code}$`));
    expect(jsQR(new Uint8ClampedArray(png.data), png.width, png.height)?.data).toBe(shortUrl);
    const colours = new Map<string, number>();
    for (let i = 0; i < png.data.length; i += 4) {
      const rgba = png.data.subarray(i, i + 4).toString('hex');
      colours.set(rgba, (colours.get(rgba) ?? 0) + 1);
    }
    expect([...colours.keys()].sort()).toEqual(['1d3557ff', 'f1faeeff']);
    // The default PNG of the same short is another image (the style is part of the cache's key).
    const plain = PNG.sync.read(
      Buffer.from(await (await t.fetch(`/api/code/${code}/qr.png?size=256`)).arrayBuffer()),
    );
    expect(plain.data.subarray(0, 4).toString('hex')).toBe('ffffffff');
  });
});
