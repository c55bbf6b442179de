/**
 * The style of a QR code (CONTRACT "Marketing links", QR styles): its colours, its error
 * correction and its quiet zone. The server checks a query's and a short's stored `qrStyle` with
 * these rules and the web client's QR dialog checks the same before it asks (one contrast
 * function for both). Pure and small: the dialog that imports it is a lazy chunk.
 */

/** The error correction levels of a QR code (about 7, 15, 25 and 30 % of it may be lost). */
export const QR_EC_LEVELS = ['L', 'M', 'Q', 'H'] as const;
export type QrEcLevel = (typeof QR_EC_LEVELS)[number];

/** The quiet zone around the code in modules: 0 to QR_MARGIN_MAX. */
export const QR_MARGIN_MAX = 8;

/** The least contrast (WCAG 2 contrast ratio) between the two colours of a QR code. */
export const QR_MIN_CONTRAST = 3;

/** A style as stored and rendered: colours as six lower-case hex digits without `#`. */
export interface QrStyle {
  fg: string;
  bg: string;
  ec: QrEcLevel;
  margin: number;
}

/** A style as a caller writes it (a short's `qrStyle`): `#` optional, missing parts the default's. */
export interface QrStyleInput {
  fg?: string;
  bg?: string;
  ec?: string;
  margin?: number;
}

/** Dark modules on white with the standard quiet zone (what a QR code without a style gets). */
export const DEFAULT_QR_STYLE: Readonly<QrStyle> = {
  fg: '000000',
  bg: 'ffffff',
  ec: 'M',
  margin: 4,
};

/** Six hex digits without `#` (a query's colour). */
export const QR_HEX_PATTERN = /^[0-9a-fA-F]{6}$/;
/** Six hex digits, `#` optional (a colour in JSON). */
const HEX_INPUT = /^#?([0-9a-fA-F]{6})$/;

/** A colour as stored (six lower-case hex digits), from `#1D3557` or `1d3557`; null if malformed. */
export function normalizeHex(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const m = HEX_INPUT.exec(value.trim());
  return m ? m[1].toLowerCase() : null;
}

/** The WCAG 2 relative luminance of a colour of six hex digits (0: black, 1: white). */
export function relativeLuminance(hex: string): number {
  const channel = (i: number) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(0) + 0.7152 * channel(2) + 0.0722 * channel(4);
}

/** The WCAG 2 contrast ratio of two colours (1 to 21; the order does not matter). */
export function contrastRatio(a: string, b: string): number {
  const [la, lb] = [relativeLuminance(a), relativeLuminance(b)];
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}

/** Whether two colours differ enough for a QR code (contrast ratio at least QR_MIN_CONTRAST). */
export function hasQrContrast(fg: string, bg: string): boolean {
  return contrastRatio(fg, bg) >= QR_MIN_CONTRAST;
}

export function isQrEcLevel(value: unknown): value is QrEcLevel {
  return typeof value === 'string' && (QR_EC_LEVELS as readonly string[]).includes(value);
}

export function isQrMargin(value: unknown): value is number {
  return (
    typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= QR_MARGIN_MAX
  );
}

/** What is wrong with a style: the part (`fg`, `bg`, `ec`, `margin`, or none: the whole) and why. */
export interface QrStyleProblem {
  part?: keyof QrStyle;
  message: string;
  /** `qr_contrast` when the colours are too alike, else the value is malformed. */
  contrast?: true;
}

/**
 * A style as a caller writes it, normalised (colours lower-case without `#`, missing parts the
 * default's), or what is wrong with it: not an object, an unknown part, a malformed colour, level
 * or margin, or colours of too little contrast.
 */
export function normalizeQrStyle(value: unknown): { style: QrStyle } | { problem: QrStyleProblem } {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { problem: { message: 'must be an object {fg, bg, ec, margin}' } };
  }
  const input = value as Record<string, unknown>;
  for (const key of Object.keys(input)) {
    if (!Object.hasOwn(DEFAULT_QR_STYLE, key)) {
      return { problem: { message: `has no part ${key.slice(0, 20)} (fg, bg, ec, margin)` } };
    }
  }
  const style = { ...DEFAULT_QR_STYLE };
  for (const part of ['fg', 'bg'] as const) {
    if (input[part] === undefined) continue;
    const hex = normalizeHex(input[part]);
    if (hex === null) return { problem: { part, message: 'must be six hex digits (# optional)' } };
    style[part] = hex;
  }
  if (input.ec !== undefined) {
    if (!isQrEcLevel(input.ec)) return { problem: { part: 'ec', message: 'must be L, M, Q or H' } };
    style.ec = input.ec;
  }
  if (input.margin !== undefined) {
    if (!isQrMargin(input.margin)) {
      return {
        problem: { part: 'margin', message: `must be a whole number from 0 to ${QR_MARGIN_MAX}` },
      };
    }
    style.margin = input.margin;
  }
  if (!hasQrContrast(style.fg, style.bg)) return { problem: contrastProblem(style) };
  return { style };
}

/** The problem of colours too alike (the query's 400 `qr_contrast`, a field error of `qrStyle`). */
export function contrastProblem(style: Pick<QrStyle, 'fg' | 'bg'>): QrStyleProblem {
  const ratio = Math.floor(contrastRatio(style.fg, style.bg) * 100) / 100;
  return {
    message: `fg and bg must have a contrast ratio of at least ${QR_MIN_CONTRAST}:1 (${style.fg} on ${style.bg}: ${ratio}:1)`,
    contrast: true,
  };
}

/** A style as its column holds it: `fg,bg,ec,margin` (e.g. `1d3557,f1faee,M,4`, at most 17 characters). */
export function qrStyleToColumn(style: QrStyle): string {
  return `${style.fg},${style.bg},${style.ec},${style.margin}`;
}

/** The style of a column (qrStyleToColumn), or null for none or anything else. */
export function qrStyleFromColumn(column: string | null | undefined): QrStyle | null {
  const parts = column?.split(',');
  if (parts?.length !== 4) return null;
  const [fg, bg, ec, margin] = parts;
  const style = normalizeQrStyle({ fg, bg, ec, margin: Number(margin) });
  return 'style' in style ? style.style : null;
}
