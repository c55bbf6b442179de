import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { extname, join, posix, resolve } from 'node:path';
import {
  brotli,
  COMPRESSIBLE_EXTENSIONS,
  type Encoding,
  ENCODINGS,
  gzip,
  isCompressedCopy,
  listFiles,
} from './precompress';

/** One representation of a file: as built, or one of its compressed copies. */
export interface Variant {
  body: Buffer;
  /** Strong ETag of this representation (each encoding has its own). */
  etag: string;
  encoding: Encoding | null;
}

export interface Asset {
  type: string;
  cacheControl: string;
  identity: Variant;
  br?: Variant;
  gzip?: Variant;
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

export const IMMUTABLE = 'public, max-age=31536000, immutable';
export const NO_CACHE = 'no-cache';
const SHORT_CACHE = 'public, max-age=3600';
/** A build has some dozens of files; a folder with more than this is served in part (and logged). */
export const MAX_FILES = 10_000;
/** While the folder holds no build, it is looked at again at most this often. */
const RESCAN_MS = 2_000;

/** A Vite output name with a content hash, e.g. assets/index-BxY7_1a2.js. */
export function isHashedAsset(relPath: string): boolean {
  return /^assets\//.test(relPath) && /-[A-Za-z0-9_-]{8,}\.[a-z0-9]+$/.test(relPath);
}

function hash(body: Buffer): string {
  return createHash('sha1').update(body).digest('base64url').slice(0, 22);
}

/**
 * An asset from its body and the compressed copies found beside it (never computed here). The
 * ETag is the identity body's hash; a compressed copy's ETag adds its encoding, so a cache that
 * holds both never mixes them up.
 */
export function makeAsset(
  body: Buffer,
  ext: string,
  cacheControl: string,
  compressed: Partial<Record<Encoding, Buffer>> = {},
): Asset {
  const tag = hash(body);
  const asset: Asset = {
    type: TYPES[ext] ?? 'application/octet-stream',
    cacheControl,
    identity: { body, etag: `"${tag}"`, encoding: null },
  };
  if (compressed.br) asset.br = { body: compressed.br, etag: `"${tag}-br"`, encoding: 'br' };
  if (compressed.gzip)
    asset.gzip = { body: compressed.gzip, etag: `"${tag}-gz"`, encoding: 'gzip' };
  return asset;
}

/**
 * An asset made at start from a body the server renders (index.html with the runtime config): it
 * is compressed here, once, and kept; a copy that is not smaller is dropped.
 */
export function makeRenderedAsset(body: Buffer, ext: string, cacheControl: string): Asset {
  const compressed: Partial<Record<Encoding, Buffer>> = {};
  if (COMPRESSIBLE_EXTENSIONS.has(ext)) {
    const br = brotli(body);
    const gz = gzip(body);
    if (br.length < body.length) compressed.br = br;
    if (gz.length < body.length) compressed.gzip = gz;
  }
  return makeAsset(body, ext, cacheControl, compressed);
}

export function hasCompressed(asset: Asset): boolean {
  return Boolean(asset.br ?? asset.gzip);
}

/** Every ETag the asset answers under (for If-None-Match). */
export function variants(asset: Asset): Variant[] {
  return [asset.identity, asset.br, asset.gzip].filter((v): v is Variant => v !== undefined);
}

/** The encodings an Accept-Encoding header allows (q=0 refuses one; `*` allows the others). */
export function acceptedEncodings(header: string | undefined): Set<Encoding> {
  const out = new Set<Encoding>();
  const refused = new Set<string>();
  let star = false;
  for (const part of String(header ?? '').split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const q = params.map((p) => /^\s*q\s*=\s*([0-9.]+)\s*$/.exec(p)).find(Boolean);
    const zero = q ? Number(q[1]) === 0 : false;
    if (zero) {
      refused.add(name.trim());
      continue;
    }
    if (name.trim() === '*') star = true;
    else if (name.trim() === 'br') out.add('br');
    else if (name.trim() === 'gzip' || name.trim() === 'x-gzip') out.add('gzip');
  }
  if (star) for (const e of ENCODINGS) if (!refused.has(e.name)) out.add(e.name);
  for (const r of refused) out.delete(r as Encoding);
  return out;
}

/** The representation to send: brotli, then gzip, when the client takes it and the build has it. */
export function chooseVariant(asset: Asset, acceptEncoding: string | undefined): Variant {
  if (!hasCompressed(asset)) return asset.identity;
  const accepted = acceptedEncodings(acceptEncoding);
  if (asset.br && accepted.has('br')) return asset.br;
  if (asset.gzip && accepted.has('gzip')) return asset.gzip;
  return asset.identity;
}

/**
 * The files of the built client. The folder is listed once (at start, or when a build first
 * appears in it): only the paths it lists are ever looked up, read or kept, so no request for
 * another path touches the disk or a cache (the cache holds at most the build's files). Each
 * file is read on its first request with its `.br`/`.gz` copies, and kept (the build is
 * immutable). index.html is not among them: the server renders it (see WebMiddleware).
 */
export class AssetStore {
  private readonly root: string;
  private files: Map<string, Partial<Record<Encoding, string>>> | null = null;
  private readonly cache = new Map<string, Asset>();
  private lastScan = 0;
  /** Files of the folder left out because it holds more than MAX_FILES (0 for a build). */
  skipped = 0;

  constructor(
    dir: string,
    private readonly now: () => number = Date.now,
  ) {
    this.root = resolve(dir);
    this.scan();
  }

  /** Lists the folder when it holds a build (index.html) and none was listed yet. */
  private scan(): void {
    this.lastScan = this.now();
    if (!existsSync(join(this.root, 'index.html'))) return;
    let listed: string[];
    try {
      listed = listFiles(this.root);
    } catch {
      return;
    }
    const all = new Set(listed);
    const files = new Map<string, Partial<Record<Encoding, string>>>();
    for (const rel of listed) {
      if (rel === 'index.html' || isCompressedCopy(rel, all)) continue;
      if (files.size >= MAX_FILES) {
        this.skipped++;
        continue;
      }
      const copies: Partial<Record<Encoding, string>> = {};
      for (const { name, suffix } of ENCODINGS) if (all.has(rel + suffix)) copies[name] = suffix;
      files.set(rel, copies);
    }
    this.files = files;
  }

  private ensureScanned(): boolean {
    if (!this.files && this.now() - this.lastScan >= RESCAN_MS) this.scan();
    return this.files !== null;
  }

  hasIndex(): boolean {
    return this.ensureScanned();
  }

  readIndexTemplate(): string {
    return readFileSync(join(this.root, 'index.html'), 'utf8');
  }

  /** How many files of the build are listed (index.html and compressed copies not counted). */
  get size(): number {
    return this.files?.size ?? 0;
  }

  /** How many assets are held in memory (at most `size`). */
  get cached(): number {
    return this.cache.size;
  }

  /** The file of the build for a URL path, or null (never index.html, never outside the build). */
  file(urlPath: string): Asset | null {
    if (!this.ensureScanned()) return null;
    let rel: string;
    try {
      rel = decodeURIComponent(urlPath);
    } catch {
      return null;
    }
    if (rel.includes('\0') || rel.includes('\\')) return null;
    rel = posix.normalize(rel).replace(/^\/+/, '');
    const copies = this.files!.get(rel);
    if (!copies) return null;
    const hit = this.cache.get(rel);
    if (hit) return hit;
    const abs = join(this.root, ...rel.split('/'));
    let asset: Asset;
    try {
      const compressed: Partial<Record<Encoding, Buffer>> = {};
      for (const [enc, suffix] of Object.entries(copies) as Array<[Encoding, string]>)
        compressed[enc] = readFileSync(abs + suffix);
      asset = makeAsset(
        readFileSync(abs),
        extname(rel).toLowerCase(),
        isHashedAsset(rel) ? IMMUTABLE : SHORT_CACHE,
        compressed,
      );
    } catch {
      return null; // removed since the folder was listed: nothing is kept
    }
    this.cache.set(rel, asset);
    return asset;
  }
}
