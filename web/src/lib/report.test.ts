import { describe, expect, it } from 'vitest';
import openapi from '../../../openapi/openapi.json';
import { de } from '../i18n/de';
import { REPORT_TYPES, validateReport } from './report';

describe('report validation', () => {
  it('requires a known type and a description (the German messages)', () => {
    expect(validateReport('', '', de.report)).toEqual({
      reason: 'Es muss eine Art der Beschwerde ausgewählt werden.',
      description: 'Es muss eine Beschreibung angegeben werden.',
    });
    expect(validateReport('SPAM', '   ', de.report)).toEqual({
      description: 'Es muss eine Beschreibung angegeben werden.',
    });
    expect(validateReport('NOPE', 'x', de.report)).toEqual({
      reason: 'Es muss eine Art der Beschwerde ausgewählt werden.',
    });
    expect(validateReport('OTHER', 'Werbung', de.report)).toEqual({});
  });
  it('has the ten reasons, each with a German label', () => {
    // The reasons the server accepts (its OpenAPI document), in its order.
    const accepted = openapi.components.schemas.CreateReportDto.properties.reason.enum;
    expect(accepted).toHaveLength(10);
    expect(REPORT_TYPES).toEqual(accepted);
    for (const r of REPORT_TYPES) expect(de.report.types[r]).toMatch(/\S/);
  });
});
