import type { qr as de } from '../de/qr';
import type { Catalogue } from '../text';

/** The QR dialog (see de/qr.ts). */
export const qr: Catalogue<typeof de> = {
  qr: {
    button: 'QR code',
    row: 'Show the QR code of {code}',
    title: 'QR code',
    alt: 'QR code for {link}',
    downloadSvg: 'Download as SVG',
    downloadPng: 'Download as PNG',
    close: 'Close',
    copy: 'Copy link',
    copied: 'Copied!',
    copyFailed: 'Copying failed!',
    style: {
      title: 'Design',
      fg: 'Foreground',
      bg: 'Background',
      hex: '{colour} as hex value',
      hexInvalid: 'Six hex digits, e.g. #1d3557.',
      ec: 'Error correction',
      ecLevels: {
        L: 'L – 7 %',
        M: 'M – 15 % (default)',
        Q: 'Q – 25 %',
        H: 'H – 30 %',
      },
      margin: 'Margin (modules)',
      contrast: 'Contrast {ratio}:1',
      lowContrast:
        'Too little contrast ({ratio}:1): foreground and background need at least {min}:1 so that scanners read the code.',
      save: 'Save as default',
      saved: 'The QR style is now this short’s default.',
      isDefault: 'This is the short’s saved default.',
    },
  },
};
