import { Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { createHash } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import type QRCodeModule from 'qrcode';
import { BadRequestError, BusyError } from '../common/errors';
import {
  contrastProblem,
  DEFAULT_QR_STYLE,
  hasQrContrast,
  type QrStyle,
  qrStyleFromColumn,
  qrStyleToColumn,
} from '../shared/qr-style';
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

/**
 * The encoder's options of a style. Without one (DEFAULT_QR_STYLE): dark modules on white with the
 * standard quiet zone, so the code scans on dark pages and prints.
 */
function encoderOptions(style: QrStyle) {
  return {
    margin: style.margin,
    errorCorrectionLevel: style.ec,
    color: { dark: `#${style.fg}ff`, light: `#${style.bg}ff` },
  };
}

/** The parts of a style a QR code's query names (the others come from the short, else the default). */
export type QrStyleQuery = Partial<QrStyle>;

/**
 * The style of a QR code: each part the query names, the others the short's stored style (its
 * `qr_style` column), else the default's. Colours of too little contrast: 400 `qr_contrast`.
 */
export function qrStyleOf(query: QrStyleQuery, stored: string | null): QrStyle {
  const base = qrStyleFromColumn(stored) ?? DEFAULT_QR_STYLE;
  const style: QrStyle = {
    fg: query.fg?.toLowerCase() ?? base.fg,
    bg: query.bg?.toLowerCase() ?? base.bg,
    ec: query.ec ?? base.ec,
    margin: query.margin ?? base.margin,
  };
  if (!hasQrContrast(style.fg, style.bg)) {
    throw new BadRequestError(contrastProblem(style).message, 'qr_contrast');
  }
  return style;
}

/** Whether the query names every part of the style (its image then never changes). */
export function namesWholeStyle(query: QrStyleQuery): boolean {
  return (
    query.fg !== undefined &&
    query.bg !== undefined &&
    query.ec !== undefined &&
    query.margin !== undefined
  );
}

/** Rendered images kept: at most this many, and at most this many bytes (a 2048 px PNG is ~20 KB). */
const CACHE_ENTRIES = 500;
const CACHE_BYTES = 32 * 1024 * 1024;

/**
 * The `qrcode` encoder, loaded by the first SVG (PNGs are rendered by the worker threads, which
 * load their own): about 1 MB of heap that an app whose QR codes nobody asks for does not hold.
 */
function qrcode(): typeof QRCodeModule {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('qrcode') as typeof QRCodeModule;
}

/**
 * QR codes of short links (`{BASE_URL}/s/{code}`) as SVG or PNG (the `qrcode` encoder, pure
 * JavaScript). A PNG costs up to ~0.4 s of CPU (2048 px), so it is rendered by a small pool of
 * worker threads, never on the event loop, at one of a few fixed widths; an SVG (~0.5 ms) is
 * written in place. The style (colours, error correction, quiet zone) is part of every image's
 * key. Identical requests share one render; rendered images are kept in an LRU bounded by count
 * and bytes; only a render (not a cached image, not joining a render under way)
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

  /** The SVG of a short's link in `style`; `client` (its address) pays for a render. */
  svg(link: string, style: QrStyle, client: string): Promise<QrImage> {
    const key = `svg|${qrStyleToColumn(style)}|${link}`;
    return this.image('svg', key, client, async () =>
      Buffer.from(await qrcode().toString(link, { ...encoderOptions(style), type: 'svg' }), 'utf8'),
    );
  }

  /**
   * The PNG of a short's link in `style`, `qrPngWidth(size)` wide; `client` (its address) pays for
   * a render.
   */
  png(link: string, size: number, style: QrStyle, client: string): Promise<QrImage> {
    const width = qrPngWidth(size);
    const key = `png|${width}|${qrStyleToColumn(style)}|${link}`;
    return this.image('png', key, client, () =>
      this.pool.run({ text: link, options: { ...encoderOptions(style), type: 'png', width } }),
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
