/**
 * The QR dialog: the code, its link, the downloads and its style (CONTRACT "Marketing links", QR
 * styles: colours, error correction, margin, the contrast rule, saving the style as the short's
 * default). Not part of the catalogue every page loads (i18n/de/index.ts): only the pages with
 * the dialog, which are lazy chunks, bring it (i18n/qr-text.ts).
 */
export const qr = {
  qr: {
    button: 'QR-Code',
    /** The own list's action of a short (its name for screen readers and on hover). */
    row: 'QR-Code von {code} anzeigen',
    title: 'QR-Code',
    alt: 'QR-Code für {link}',
    downloadSvg: 'Als SVG herunterladen',
    downloadPng: 'Als PNG herunterladen',
    close: 'Schließen',
    /** The copy button beside the link. */
    copy: 'Link kopieren',
    copied: 'Kopiert!',
    copyFailed: 'Kopieren fehlgeschlagen!',
    style: {
      title: 'Gestaltung',
      fg: 'Vordergrund',
      bg: 'Hintergrund',
      /** The text input beside a colour picker. */
      hex: '{colour} als Hex-Wert',
      hexInvalid: 'Sechs Hex-Ziffern, z. B. #1d3557.',
      ec: 'Fehlerkorrektur',
      ecLevels: {
        L: 'L – 7 %',
        M: 'M – 15 % (Standard)',
        Q: 'Q – 25 %',
        H: 'H – 30 %',
      },
      margin: 'Rand (Module)',
      contrast: 'Kontrast {ratio}:1',
      lowContrast:
        'Zu wenig Kontrast ({ratio}:1): Vorder- und Hintergrund brauchen mindestens {min}:1, damit Scanner den Code lesen.',
      save: 'Als Standard speichern',
      saved: 'Der QR-Stil ist jetzt der Standard dieses Shorts.',
      isDefault: 'Das ist der gespeicherte Standard dieses Shorts.',
    },
  },
};
