import { Inject, Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { createHash } from 'node:crypto';
import QRCode from 'qrcode';
import { APP_CONFIG, type AppConfig } from '../config/config';

export const QR_MIN_SIZE = 128;
export const QR_MAX_SIZE = 2048;
export const QR_DEFAULT_SIZE = 512;

export interface QrImage {
  body: Buffer;
  type: 'image/svg+xml' | 'image/png';
  etag: string;
}

/** Dark modules on white with the standard quiet zone, so the code scans on dark pages and prints. */
const STYLE = {
  margin: 4,
  errorCorrectionLevel: 'M' as const,
  color: { dark: '#000000ff', light: '#ffffffff' },
};

/**
 * QR codes of short links (`{BASE_URL}/s/{code}`) as SVG or PNG (the `qrcode` encoder, pure
 * JavaScript). Rendered images are kept in a small in-process cache; the ETag is a hash of the
 * image, so it changes only when the image does.
 */
@Injectable()
export class QrService {
  private readonly cache = new LRUCache<string, QrImage>({ max: 500 });

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  /** The URL a short's QR code encodes. */
  shortUrl(code: string): string {
    return `${this.config.baseUrl}/s/${encodeURIComponent(code)}`;
  }

  async svg(code: string): Promise<QrImage> {
    return this.render(`svg|${code}`, async () =>
      Buffer.from(await QRCode.toString(this.shortUrl(code), { ...STYLE, type: 'svg' }), 'utf8'),
    );
  }

  async png(code: string, size: number): Promise<QrImage> {
    return this.render(`png|${size}|${code}`, () =>
      QRCode.toBuffer(this.shortUrl(code), { ...STYLE, type: 'png', width: size }),
    );
  }

  private async render(key: string, make: () => Promise<Buffer>): Promise<QrImage> {
    const hit = this.cache.get(key);
    if (hit) return hit;
    const body = await make();
    const image: QrImage = {
      body,
      type: key.startsWith('svg') ? 'image/svg+xml' : 'image/png',
      etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`,
    };
    this.cache.set(key, image);
    return image;
  }
}
