/**
 * The QR dialog's style (CONTRACT "Marketing links", QR styles): colours, error correction,
 * margin, the contrast rule and saving the style as the short's default. Not part of the catalogue
 * every page loads (i18n/de/index.ts): only the style panel, a lazy chunk, brings it
 * (i18n/qr-style-text.ts).
 */
export const qrStyle = {
  qrStyle: {
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
};
