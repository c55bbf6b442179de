import type { transfer as de } from '../de/transfer';
import type { Catalogue } from '../text';

/** Export and import of own shorts (see de/transfer.ts). */
export const transfer: Catalogue<typeof de> = {
  transfer: {
    exportCsv: 'Export (CSV)',
    exportJson: 'Export (JSON)',
    import: 'Import',
    title: 'Import shorts',
    intro:
      'Import links from a CSV file – from URL-Shorter, Shlink, YOURLS, Kutt or Bitly. The columns are recognised by their names.',
    file: 'CSV file',
    paste: 'Or paste CSV text',
    preview: 'Preview of the first rows',
    rows: { one: '{count} row found', other: '{count} rows found' },
    mapping: 'Recognised columns',
    column: 'Column',
    becomes: 'becomes',
    ignored: 'is ignored',
    noUrlColumn: 'No URL column found. A column {names} is expected.',
    or: 'or',
    tooMany: 'At most {max} rows can be imported at once.',
    tooManyColumns: 'A file may have at most {max} columns.',
    unreadable: 'The file could not be read as CSV.',
    empty: 'The file has no rows.',
    start: 'Start import',
    close: 'Close',
    progress: '{done} of {total} rows sent',
    result: '{created}, {skipped}.',
    resultCreated: { one: '{created} short created', other: '{created} shorts created' },
    resultSkipped: { one: '{skipped} row skipped', other: '{skipped} rows skipped' },
    skippedTitle: 'Skipped rows',
    row: 'Row',
    code: 'Code',
    reason: 'Reason',
    downloadSkipped: 'Download the skipped rows as CSV',
    failed: 'The import stopped: {message}',
    done: 'Import finished',
    reasonOther: 'The row was not taken over ({detail})',
  },
};
