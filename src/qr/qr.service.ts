import { Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { createHash } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import QRCode from 'qrcode';
import { BusyError } from '../common/errors';
import { RateLimitService } from '../limits/rate-limit.service';
import { LogService } from '../logging/log.service';
import { MetricsService } from '../metrics/metrics.service';
import { QrRenderPool, rendererBusy } from './qr-render-pool';

export const QR_MIN_SIZE = 128;
export const QR_MAX_SIZE = 2048;
export const QR_DEFAULT_SIZE = 512;
/** The widths a PNG is rendered at: a requested size (128–2048) is rounded up to the next one. */
export const QR_PNG_SIZES = [128, 256, 512, 1024, 2048] as const;

/** The width of the PNG served for a requested size (128–2048). */
export function qrPngWidth(size: number): number {
  return QR_PNG_SIZES.find((width) => width >= size) ?? QR_MAX_SIZE;
}

export interface QrImage {
  body: Buffer;
  type: 'image/svg+xml' | 'image/png';
  etag: string;
}

type QrKind = 'svg' | 'png';

/** Dark modules on white with the standard quiet zone, so the code scans on dark pages and prints. */
const STYLE = {
  margin: 4,
  errorCorrectionLevel: 'M' as const,
  color: { dark: '#000000ff', light: '#ffffffff' },
};

/** Rendered images kept: at most this many, and at most this many bytes (a 2048 px PNG is ~20 KB). */
const CACHE_ENTRIES = 500;
const CACHE_BYTES = 32 * 1024 * 1024;

/**
 * QR codes of short links (`{BASE_URL}/s/{code}`) as SVG or PNG (the `qrcode` encoder, pure
 * JavaScript). A PNG costs up to ~0.4 s of CPU (2048 px), so it is rendered by a small pool of
 * worker threads, never on the event loop, at one of a few fixed widths; an SVG (~0.5 ms) is
 * written in place. Identical requests share one render; rendered images are kept in an LRU
 * bounded by count and bytes; only a render (not a cached image, not joining a render under way)
 * takes from the client's LIMIT_QR_RENDER. The ETag is a hash of the image.
 */
@Injectable()
export class QrService implements OnApplicationShutdown {
  private readonly cache = new LRUCache<string, QrImage>({
    max: CACHE_ENTRIES,
    maxSize: CACHE_BYTES,
    sizeCalculation: (image, key) => image.body.length + key.length,
  });
  private readonly rendering = new Map<string, Promise<QrImage>>();
  private readonly pool: QrRenderPool;

  constructor(
    private readonly limits: RateLimitService,
    private readonly metrics: MetricsService,
    log: LogService,
  ) {
    const workers = Math.max(1, Math.min(2, availableParallelism() - 1));
    this.pool = new QrRenderPool({
      script: join(__dirname, 'qr-render.worker.mjs'),
      workers,
      queue: 16 * workers,
      // A 2048 px PNG takes ~0.4 s, a few s on a busy host (the worker runs at a lower priority).
      timeoutMs: 20_000,
      onLost: (reason) => log.write('warn', 'qr', `QR render worker ${reason}; replaced`),
    });
  }

  /** The SVG of a short's link; `client` (its address) pays for a render. */
  svg(link: string, client: string): Promise<QrImage> {
    return this.image('svg', `svg|${link}`, client, async () =>
      Buffer.from(await QRCode.toString(link, { ...STYLE, type: 'svg' }), 'utf8'),
    );
  }

  /** The PNG of a short's link, `qrPngWidth(size)` wide; `client` (its address) pays for a render. */
  png(link: string, size: number, client: string): Promise<QrImage> {
    const width = qrPngWidth(size);
    return this.image('png', `png|${width}|${link}`, client, () =>
      this.pool.run({ text: link, options: { ...STYLE, type: 'png', width } }),
    );
  }

  async onApplicationShutdown(): Promise<void> {
    await this.pool.close();
  }

  private async image(
    kind: QrKind,
    key: string,
    client: string,
    make: () => Promise<Buffer>,
  ): Promise<QrImage> {
    const ready = this.cache.get(key) ?? this.rendering.get(key);
    if (ready) return ready;
    if (kind === 'png' && this.pool.full) {
      this.metrics.qrRenders.inc({ kind, outcome: 'busy' });
      throw rendererBusy(); // before the limit: a refused render costs the client nothing
    }
    await this.limits.take('qrRender', client);
    // The same image may have been started while the limit was checked (Redis answers async).
    const started = this.cache.get(key) ?? this.rendering.get(key);
    if (started) return started;
    const render = this.render(kind, key, make).finally(() => this.rendering.delete(key));
    this.rendering.set(key, render);
    return render;
  }

  private async render(kind: QrKind, key: string, make: () => Promise<Buffer>): Promise<QrImage> {
    let body: Buffer;
    try {
      body = await make();
    } catch (err) {
      this.metrics.qrRenders.inc({ kind, outcome: err instanceof BusyError ? 'busy' : 'failed' });
      throw err;
    }
    this.metrics.qrRenders.inc({ kind, outcome: 'rendered' });
    const image: QrImage = {
      body,
      type: kind === 'svg' ? 'image/svg+xml' : 'image/png',
      etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`,
    };
    this.cache.set(key, image);
    return image;
  }
}
