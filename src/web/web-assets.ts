import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';

export interface Asset {
  body: Buffer;
  type: string;
  etag: string;
  cacheControl: string;
  compressible: boolean;
  gzip?: Buffer;
  br?: Buffer;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
  '.xml': 'application/xml',
};
const COMPRESSIBLE = new Set([
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

export const IMMUTABLE = 'public, max-age=31536000, immutable';
export const NO_CACHE = 'no-cache';
const SHORT_CACHE = 'public, max-age=3600';

/** A Vite output name with a content hash, e.g. assets/index-BxY7_1a2.js. */
export function isHashedAsset(relPath: string): boolean {
  return /^assets\//.test(relPath) && /-[A-Za-z0-9_-]{8,}\.[a-z0-9]+$/.test(relPath);
}

export function makeAsset(body: Buffer, ext: string, cacheControl: string): Asset {
  return {
    body,
    type: TYPES[ext] ?? 'application/octet-stream',
    etag: `"${createHash('sha1').update(body).digest('base64url').slice(0, 22)}"`,
    cacheControl,
    compressible: COMPRESSIBLE.has(ext) && body.length >= 512,
  };
}

/** Compressed bodies are computed once per asset and kept. */
export function encoded(asset: Asset, encoding: 'br' | 'gzip'): Buffer {
  if (encoding === 'br') {
    asset.br ??= brotliCompressSync(asset.body, {
      params: { [zlib.BROTLI_PARAM_QUALITY]: 9, [zlib.BROTLI_PARAM_SIZE_HINT]: asset.body.length },
    });
    return asset.br;
  }
  asset.gzip ??= gzipSync(asset.body, { level: 9 });
  return asset.gzip;
}

/** Static files of the built client, read on demand and kept in memory (the folder is immutable). */
export class AssetStore {
  private readonly root: string;
  private readonly cache = new Map<string, Asset | null>();

  constructor(dir: string) {
    this.root = resolve(dir);
  }

  hasIndex(): boolean {
    return existsSync(join(this.root, 'index.html'));
  }

  readIndexTemplate(): string {
    return readFileSync(join(this.root, 'index.html'), 'utf8');
  }

  /** The file for a URL path, or null (never index.html, never outside the folder). */
  file(urlPath: string): Asset | null {
    let rel: string;
    try {
      rel = decodeURIComponent(urlPath).replace(/^\/+/, '');
    } catch {
      return null;
    }
    if (!rel || rel.includes('\0')) return null;
    const normalized = normalize(rel);
    if (normalized === 'index.html' || normalized.startsWith('..')) return null;
    if (this.cache.has(normalized)) return this.cache.get(normalized) ?? null;
    const abs = join(this.root, normalized);
    let asset: Asset | null = null;
    if (abs.startsWith(this.root + sep)) {
      try {
        if (statSync(abs).isFile()) {
          const rel2 = normalized.split(sep).join('/');
          asset = makeAsset(
            readFileSync(abs),
            extname(abs).toLowerCase(),
            isHashedAsset(rel2) ? IMMUTABLE : SHORT_CACHE,
          );
        }
      } catch {
        asset = null;
      }
    }
    if (this.cache.size < 5000) this.cache.set(normalized, asset);
    return asset;
  }
}
