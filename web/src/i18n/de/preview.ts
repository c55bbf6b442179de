/**
 * The social preview's section of the short's form (CONTRACT "Marketing links", social previews).
 * Not part of the catalogue every page loads (i18n/de/index.ts): the section is a lazy chunk of
 * the logged-in form (i18n/preview-text.ts).
 */
export const preview = {
  preview: {
    hint: 'So erscheint der Link, wenn er in Slack, LinkedIn, X, Facebook, Discord, WhatsApp oder Telegram geteilt wird. Leere Felder übernehmen, was die Zielseite selbst angibt (soweit bekannt).',
    title: 'Titel',
    description: 'Beschreibung',
    image: 'Bild-URL',
    imageHint:
      'Eine vollständige https-URL (z. B. 1200 × 630 Pixel). Der Server lädt das Bild nie.',
    imagePlaceholder: 'https://example.com/bild.png',
    left: 'Noch {n} Zeichen',
    set: 'gesetzt',
    cards: 'Live-Vorschau',
    linkedin: 'Wie in LinkedIn',
    slack: 'Wie in Slack',
    noTitle: 'Titel der Zielseite',
    imageAlt: 'Vorschaubild',
  },
};
