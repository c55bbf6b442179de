import { DEFAULT_QR_STYLE, type QrStyle } from '@shared/qr-style';

/**
 * The QR dialog's image addresses (CONTRACT "Marketing links", QR styles): the short's images in
 * a chosen style. The style's rules (colours, contrast) are src/shared/qr-style.ts, the server's.
 */

/** Whether two styles draw the same image. */
export function sameQrStyle(a: QrStyle | null, b: QrStyle | null): boolean {
  if (a === null || b === null) return a === b;
  return a.fg === b.fg && a.bg === b.bg && a.ec === b.ec && a.margin === b.margin;
}

/** The style a short's images have without a query: its stored default, else black on white. */
export function effectiveQrStyle(stored: QrStyle | null | undefined): QrStyle {
  return stored ?? DEFAULT_QR_STYLE;
}

/**
 * The address of a short's QR image (`qr.svg`, or `qr.png` of `size` px) in `style`: the style's
 * parts in the query only where it differs from what the image has without one (`effective`), so
 * the short's own image keeps its plain address; `domain` names an own domain's short.
 */
export function qrImageUrl(
  code: string,
  kind: 'svg' | 'png',
  style: QrStyle,
  effective: QrStyle,
  { domain, size }: { domain?: string | null; size?: number } = {},
): string {
  const query = new URLSearchParams();
  if (size !== undefined) query.set('size', String(size));
  if (!sameQrStyle(style, effective)) {
    query.set('fg', style.fg);
    query.set('bg', style.bg);
    query.set('ec', style.ec);
    query.set('margin', String(style.margin));
  }
  if (domain) query.set('domain', domain);
  const q = query.toString();
  return `/api/code/${encodeURIComponent(code)}/qr.${kind}${q ? `?${q}` : ''}`;
}
