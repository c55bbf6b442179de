import { describe, expect, it } from 'vitest';
import {
  contrastRatio,
  DEFAULT_QR_STYLE,
  hasQrContrast,
  normalizeHex,
  normalizeQrStyle,
  qrStyleFromColumn,
  qrStyleToColumn,
  relativeLuminance,
} from './qr-style';

describe('QR styles (shared/qr-style.ts)', () => {
  it('computes the WCAG 2 relative luminance and contrast ratio', () => {
    expect(relativeLuminance('000000')).toBe(0);
    expect(relativeLuminance('ffffff')).toBeCloseTo(1, 10);
    expect(relativeLuminance('ff0000')).toBeCloseTo(0.2126, 10);
    // Below 0.03928 a channel is linear (÷ 12.92).
    expect(relativeLuminance('0a0a0a')).toBeCloseTo(10 / 255 / 12.92, 10);
    expect(contrastRatio('000000', 'ffffff')).toBeCloseTo(21, 10);
    expect(contrastRatio('ffffff', '000000')).toBeCloseTo(21, 10);
    expect(contrastRatio('777777', 'ffffff')).toBeCloseTo(4.48, 2);
    expect(contrastRatio('1d3557', 'f1faee')).toBeCloseTo(11.56, 2);
    expect(contrastRatio('abcdef', 'abcdef')).toBe(1);
  });

  it('asks for a contrast of at least 3:1, in either order', () => {
    expect(hasQrContrast('949494', 'ffffff')).toBe(true); // 3.03
    expect(hasQrContrast('959595', 'ffffff')).toBe(false); // 2.995
    expect(hasQrContrast('ffffff', '959595')).toBe(false);
    expect(hasQrContrast('f1faee', '1d3557')).toBe(true); // light on dark counts too
    expect(hasQrContrast('ffffff', 'ffffff')).toBe(false);
  });

  it('normalises colours: # optional, lower case; anything else is refused', () => {
    expect(normalizeHex('#1D3557')).toBe('1d3557');
    expect(normalizeHex('f1faee')).toBe('f1faee');
    for (const bad of ['#fff', '1d355', '1d35577', 'gg0000', '##1d3557', '', 12, null]) {
      expect(normalizeHex(bad)).toBeNull();
    }
  });

  it('normalises a style: missing parts are the default’s; names what is wrong', () => {
    expect(normalizeQrStyle({})).toEqual({ style: DEFAULT_QR_STYLE });
    expect(normalizeQrStyle({ fg: '#1D3557', bg: 'F1FAEE', ec: 'H', margin: 0 })).toEqual({
      style: { fg: '1d3557', bg: 'f1faee', ec: 'H', margin: 0 },
    });
    expect(normalizeQrStyle({ fg: '12345' })).toMatchObject({ problem: { part: 'fg' } });
    expect(normalizeQrStyle({ ec: 'X' })).toMatchObject({ problem: { part: 'ec' } });
    expect(normalizeQrStyle({ ec: 'm' })).toMatchObject({ problem: { part: 'ec' } });
    expect(normalizeQrStyle({ margin: 9 })).toMatchObject({ problem: { part: 'margin' } });
    expect(normalizeQrStyle({ margin: -1 })).toMatchObject({ problem: { part: 'margin' } });
    expect(normalizeQrStyle({ margin: 1.5 })).toMatchObject({ problem: { part: 'margin' } });
    expect(normalizeQrStyle({ margin: '4' })).toMatchObject({ problem: { part: 'margin' } });
    expect(normalizeQrStyle({ size: 4 })).toMatchObject({ problem: { message: /no part size/ } });
    expect(normalizeQrStyle([])).toMatchObject({ problem: { message: /object/ } });
    expect(normalizeQrStyle('1d3557')).toMatchObject({ problem: { message: /object/ } });
    expect(normalizeQrStyle({ fg: 'eeeeee' })).toMatchObject({
      problem: { contrast: true, message: /at least 3:1 \(eeeeee on ffffff: 1\.16:1\)/ },
    });
  });

  it('stores a style compactly and reads it back', () => {
    const style = { fg: '1d3557', bg: 'f1faee', ec: 'Q', margin: 8 } as const;
    expect(qrStyleToColumn(style)).toBe('1d3557,f1faee,Q,8');
    expect(qrStyleFromColumn('1d3557,f1faee,Q,8')).toEqual(style);
    expect(qrStyleFromColumn(null)).toBeNull();
    expect(qrStyleFromColumn('1d3557,f1faee,Q')).toBeNull();
  });
});
