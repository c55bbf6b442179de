import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packagesLoadedBy } from '../../test/support/packages-loaded';

describe('packages loaded by their first use, not at start', () => {
  it('the QR service, the link-preview reader and the import load neither qrcode, htmlparser2 nor csv-parse', () => {
    const loaded = packagesLoadedBy(
      join(__dirname, '../qr/qr.service.ts'),
      join(__dirname, '../metadata/html-meta.ts'),
      join(__dirname, '../transfer/import-rows.ts'),
    );
    // (They load other packages, so a module that failed to load would not pass unnoticed.)
    expect(loaded).toContain('lru-cache');
    expect(loaded.filter((p) => /^(qrcode|htmlparser2|csv-parse)$/.test(p))).toEqual([]);
  });
});
