/**
 * Export and import of own shorts (the own list's buttons, the import dialog, its preview and
 * result). Not part of the catalogue every page loads (i18n/de/index.ts): only the own list, a
 * lazy chunk, brings it (i18n/transfer-text.ts).
 */
export const transfer = {
  transfer: {
    exportCsv: 'Exportieren (CSV)',
    exportJson: 'Exportieren (JSON)',
    import: 'Importieren',
    title: 'Shorts importieren',
    intro:
      'Importiere Links aus einer CSV-Datei – aus URL-Shorter, Shlink, YOURLS, Kutt oder Bitly. Die Spalten werden an ihrem Namen erkannt.',
    file: 'CSV-Datei',
    paste: 'Oder CSV-Text einfügen',
    preview: 'Vorschau der ersten Zeilen',
    rows: { one: '{count} Zeile erkannt', other: '{count} Zeilen erkannt' },
    mapping: 'Erkannte Spalten',
    column: 'Spalte',
    becomes: 'wird zu',
    ignored: 'wird ignoriert',
    noUrlColumn: 'Keine URL-Spalte gefunden. Erwartet wird eine Spalte {names}.',
    or: 'oder',
    tooMany: 'Es können höchstens {max} Zeilen auf einmal importiert werden.',
    tooManyColumns: 'Eine Datei darf höchstens {max} Spalten haben.',
    unreadable: 'Die Datei konnte nicht als CSV gelesen werden.',
    empty: 'Die Datei enthält keine Zeilen.',
    start: 'Import starten',
    close: 'Schließen',
    progress: '{done} von {total} Zeilen gesendet',
    result: '{created}, {skipped}.',
    resultCreated: { one: '{created} Short erstellt', other: '{created} Shorts erstellt' },
    resultSkipped: { one: '{skipped} Zeile übersprungen', other: '{skipped} Zeilen übersprungen' },
    skippedTitle: 'Übersprungene Zeilen',
    row: 'Zeile',
    code: 'Code',
    reason: 'Grund',
    downloadSkipped: 'Übersprungene Zeilen als CSV herunterladen',
    failed: 'Der Import ist abgebrochen: {message}',
    done: 'Import abgeschlossen',
    reasonOther: 'Die Zeile wurde nicht übernommen ({detail})',
  },
};
