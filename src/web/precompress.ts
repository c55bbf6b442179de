import { readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { extname, join, relative, sep } from 'node:path';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';

/**
 * Build-time compression of the web client (CONTRACT "Hardening": assets are compressed when the
 * client is built and served as built). The Vite build calls `precompressDir` on its output, so
 * every text file of the build gets a `.br` and a `.gz` beside it; the server only picks one of the
 * files it finds and never compresses in a request. Shared by web/vite.config.mts and the tests.
 */

/** Extensions worth compressing (text and SVG/ICO); images and fonts are compressed already. */
export const COMPRESSIBLE_EXTENSIONS: ReadonlySet<string> = new Set([
  '.html',
  '.js',
  '.mjs',
  '.css',
  '.json',
  '.map',
  '.svg',
  '.txt',
  '.webmanifest',
  '.xml',
  '.ico',
]);

/** The encodings the server serves, with the suffix of their file beside the original. */
export const ENCODINGS = [
  { name: 'br', suffix: '.br' },
  { name: 'gzip', suffix: '.gz' },
] as const;
export type Encoding = (typeof ENCODINGS)[number]['name'];

/** Is this file of the build a compressed copy of another file of it? */
export function isCompressedCopy(relPath: string, all: ReadonlySet<string>): boolean {
  return ENCODINGS.some(
    (e) => relPath.endsWith(e.suffix) && all.has(relPath.slice(0, -e.suffix.length)),
  );
}

/** Every file under `dir`, as paths relative to it with forward slashes. */
export function listFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (abs: string): void => {
    for (const entry of readdirSync(abs, { withFileTypes: true })) {
      const p = join(abs, entry.name);
      if (entry.isDirectory()) walk(p);
      else if (entry.isFile()) out.push(relative(dir, p).split(sep).join('/'));
    }
  };
  walk(dir);
  return out.sort();
}

export function brotli(body: Buffer): Buffer {
  return brotliCompressSync(body, {
    params: {
      [zlib.BROTLI_PARAM_QUALITY]: zlib.BROTLI_MAX_QUALITY,
      [zlib.BROTLI_PARAM_SIZE_HINT]: body.length,
    },
  });
}

export function gzip(body: Buffer): Buffer {
  return gzipSync(body, { level: 9 });
}

export interface PrecompressResult {
  file: string;
  size: number;
  br: number | null;
  gz: number | null;
}

/**
 * Writes `FILE.br` and `FILE.gz` beside each compressible file of `dir` (brotli at its highest
 * quality, gzip level 9). A copy that would not be smaller than the file is not written (and a
 * stale one is removed), so the server serves such a file as it is. `skip` names files left out
 * (index.html: the server renders it with the runtime config and compresses that once at start).
 */
export function precompressDir(
  dir: string,
  skip: (relPath: string) => boolean = (p) => p === 'index.html',
): PrecompressResult[] {
  const files = listFiles(dir);
  const all = new Set(files);
  const results: PrecompressResult[] = [];
  for (const rel of files) {
    if (isCompressedCopy(rel, all) || skip(rel)) continue;
    if (!COMPRESSIBLE_EXTENSIONS.has(extname(rel).toLowerCase())) continue;
    const abs = join(dir, ...rel.split('/'));
    if (!statSync(abs).isFile()) continue;
    const body = readFileSync(abs);
    const result: PrecompressResult = { file: rel, size: body.length, br: null, gz: null };
    for (const { name, suffix } of ENCODINGS) {
      const packed = name === 'br' ? brotli(body) : gzip(body);
      if (packed.length < body.length) {
        writeFileSync(abs + suffix, packed);
        if (name === 'br') result.br = packed.length;
        else result.gz = packed.length;
      } else {
        rmSync(abs + suffix, { force: true });
      }
    }
    results.push(result);
  }
  return results;
}
