import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { precompressDir } from './precompress';
import {
  acceptedEncodings,
  AssetStore,
  chooseVariant,
  IMMUTABLE,
  makeAsset,
  makeRenderedAsset,
  NO_CACHE,
} from './web-assets';

const JS = `export const x = ${JSON.stringify('abc '.repeat(2000))};\n`;
const dirs: string[] = [];

function build(options: { precompress?: boolean; index?: boolean } = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'assets-'));
  dirs.push(dir);
  mkdirSync(join(dir, 'assets'));
  if (options.index !== false)
    writeFileSync(join(dir, 'index.html'), '<!doctype html><html></html>');
  writeFileSync(join(dir, 'assets', 'index-AbCd1234.js'), JS);
  writeFileSync(join(dir, 'favicon.svg'), '<svg/>');
  if (options.precompress !== false) precompressDir(dir);
  return dir;
}

afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('precompressDir', () => {
  it('writes a .br and a .gz beside each text file they make smaller, not beside index.html', () => {
    const dir = build();
    const js = join(dir, 'assets', 'index-AbCd1234.js');
    expect(brotliDecompressSync(readBuf(js + '.br')).toString()).toBe(JS);
    expect(gunzipSync(readBuf(js + '.gz')).toString()).toBe(JS);
    // Six bytes do not get smaller.
    expect(existsSync(join(dir, 'favicon.svg.br'))).toBe(false);
    expect(existsSync(join(dir, 'index.html.br'))).toBe(false);
    // Run twice (a rebuild into the same folder): no copies of copies.
    precompressDir(dir);
    expect(existsSync(js + '.br.br')).toBe(false);
    expect(existsSync(js + '.gz.gz')).toBe(false);
  });
});

function readBuf(path: string): Buffer {
  return readFileSync(path);
}

describe('AssetStore', () => {
  it('serves the files of the build with the copies found beside them', () => {
    const store = new AssetStore(build());
    const asset = store.file('/assets/index-AbCd1234.js')!;
    expect(asset.cacheControl).toBe(IMMUTABLE);
    expect(asset.identity.body.toString()).toBe(JS);
    expect(brotliDecompressSync(asset.br!.body).toString()).toBe(JS);
    expect(gunzipSync(asset.gzip!.body).toString()).toBe(JS);
    expect(store.file('/favicon.svg')!.br).toBeUndefined();
    expect(store.size).toBe(2);
  });

  it('keeps nothing for paths that are not files of the build (the poisoned cache of issue 37)', () => {
    const store = new AssetStore(build());
    for (let i = 0; i < 6000; i++) expect(store.file(`/j/${i}`)).toBeNull();
    expect(store.cached).toBe(0);
    const first = store.file('/assets/index-AbCd1234.js');
    expect(first).not.toBeNull();
    // Read once and kept, however many junk paths came before.
    expect(store.file('/assets/index-AbCd1234.js')).toBe(first);
    expect(store.cached).toBe(1);
  });

  it('never serves index.html, compressed copies, or anything outside the build', () => {
    const dir = build();
    writeFileSync(join(dir, '..', 'outside.txt'), 'no');
    const store = new AssetStore(join(dir));
    for (const p of [
      '/index.html',
      '/assets/index-AbCd1234.js.br',
      '/assets/index-AbCd1234.js.gz',
      '/../outside.txt',
      '/%2e%2e/outside.txt',
      '/assets/..%2f..%2foutside.txt',
      '/assets%5c..%5cfavicon.svg',
      '/%00',
      '/%E0%A4%A',
    ])
      expect(store.file(p), p).toBeNull();
    expect(store.file('/assets/../favicon.svg')).not.toBeNull();
    rmSync(join(dir, '..', 'outside.txt'), { force: true });
  });

  it('does not serve a file written after the build was listed', () => {
    const dir = build();
    const store = new AssetStore(dir);
    writeFileSync(join(dir, 'late.js'), JS);
    expect(store.file('/late.js')).toBeNull();
  });

  it('lists a build that appears after the start, looking again at most every 2 s', () => {
    const dir = build({ index: false });
    let now = 0;
    const store = new AssetStore(dir, () => now);
    expect(store.hasIndex()).toBe(false);
    writeFileSync(join(dir, 'index.html'), '<!doctype html>');
    now = 1_000;
    expect(store.file('/assets/index-AbCd1234.js')).toBeNull();
    now = 2_500;
    expect(store.hasIndex()).toBe(true);
    expect(store.file('/assets/index-AbCd1234.js')).not.toBeNull();
  });

  it('serves a build without copies as it is (nothing is compressed on request)', () => {
    const store = new AssetStore(build({ precompress: false }));
    const asset = store.file('/assets/index-AbCd1234.js')!;
    expect(asset.br).toBeUndefined();
    expect(asset.gzip).toBeUndefined();
    expect(chooseVariant(asset, 'br, gzip')).toBe(asset.identity);
  });
});

describe('choosing a representation', () => {
  const asset = makeAsset(Buffer.from(JS), '.js', IMMUTABLE, {
    br: Buffer.from('b'),
    gzip: Buffer.from('g'),
  });

  it.each([
    ['gzip, deflate, br', 'br'],
    ['br;q=1.0, gzip;q=0.8', 'br'],
    ['gzip', 'gzip'],
    ['x-gzip', 'gzip'],
    ['br;q=0, gzip', 'gzip'],
    ['br;q=0.0', null],
    ['*', 'br'],
    ['*, br;q=0', 'gzip'],
    ['identity', null],
    ['', null],
    [undefined, null],
  ])('Accept-Encoding %j → %s', (header, expected) => {
    expect(chooseVariant(asset, header).encoding).toBe(expected);
  });

  it('gives each representation its own ETag', () => {
    expect(new Set([asset.identity.etag, asset.br!.etag, asset.gzip!.etag]).size).toBe(3);
  });

  it('parses q-values', () => {
    expect([...acceptedEncodings('gzip;q=0.5, br ; q=0.001')].sort()).toEqual(['br', 'gzip']);
  });

  it('compresses a rendered page once, when it is made', () => {
    const html = Buffer.from(`<!doctype html>${'<p>hallo</p>'.repeat(200)}`);
    const page = makeRenderedAsset(html, '.html', NO_CACHE);
    expect(brotliDecompressSync(page.br!.body).equals(html)).toBe(true);
    expect(gunzipSync(page.gzip!.body).equals(html)).toBe(true);
    expect(page.type).toContain('text/html');
  });
});
