import { describe, expect, it } from 'vitest';
import {
  bucketLabel,
  countryName,
  entryName,
  legendSpan,
  legendValue,
  rangeQuery,
  statisticsCsvUrl,
  withShares,
} from './statistics';

describe('statistics helpers', () => {
  const now = Date.UTC(2026, 10, 23, 8, 20);
  it('turns a range choice into the query: hours for 24 h and 7 days, days for 30, months for 12', () => {
    expect(rangeQuery('24h', now, 'Europe/Berlin')).toEqual({
      from: '2026-11-22T09:00:00.000Z',
      to: '2026-11-23T09:00:00.000Z',
      granularity: 'hour',
      tz: 'Europe/Berlin',
    });
    expect(rangeQuery('7d', now, 'UTC').granularity).toBe('hour');
    expect(rangeQuery('30d', now, 'UTC').granularity).toBe('day');
    const year = rangeQuery('12m', now, 'UTC');
    expect(year.granularity).toBe('month');
    expect(Date.parse(year.to) - Date.parse(year.from)).toBe(365 * 86_400_000);
  });

  it('names countries in German and keeps unknown and other readable', () => {
    expect(countryName('DE')).toBe('Deutschland');
    expect(countryName('us')).toBe('Vereinigte Staaten');
    expect(countryName('unknown')).toBe('Unbekannt');
    expect(entryName('countries', 'other')).toBe('Sonstige');
  });

  it('labels referrers, devices and the rest', () => {
    expect(entryName('referrers', 'direct')).toBe('Direkt (ohne Verweis)');
    expect(entryName('referrers', 'google.com')).toBe('google.com');
    expect(entryName('devices', 'mobile')).toBe('Smartphone');
    expect(entryName('browsers', 'unknown')).toBe('Unbekannt');
    expect(entryName('os', '<b>x</b>')).toBe('<b>x</b>');
    expect(entryName('targets', 'default')).toBe('Standardziel');
    expect(entryName('targets', '2')).toBe('Regel 2');
    expect(entryName('targets', 'other')).toBe('Sonstige');
  });

  it("the chart's legend shows the totals until the pointer is over a bucket", () => {
    expect(legendValue(1234, null, null)).toBe('1.234');
    expect(legendValue(1234, 7, 3)).toBe('7');
    expect(legendValue(1234, null, 3)).toBe('0');
    const series = [
      { start: '2026-11-01T00:00:00Z', visits: 1, visitors: 1, bots: 0 },
      { start: '2026-11-30T00:00:00Z', visits: 2, visitors: 1, bots: 0 },
    ];
    expect(legendSpan({ series, granularity: 'day' }, 'UTC')).toBe('01.11.2026 – 30.11.2026');
    expect(legendSpan({ series: [], granularity: 'day' }, 'UTC')).toBe('');
  });

  it('names a target by its rule and spells the systems as the rules do', () => {
    const rules = [
      { conditions: [{ type: 'os' as const, value: 'ios' }] },
      {
        conditions: [
          { type: 'device' as const, value: 'mobile' },
          { type: 'language' as const, value: 'de' },
        ],
      },
    ];
    expect(entryName('targets', '1', rules)).toBe('Regel 1: iOS');
    expect(entryName('targets', '2', rules)).toBe('Regel 2: Smartphone und Sprache: Deutsch');
    // A rule removed since: its number alone.
    expect(entryName('targets', '3', rules)).toBe('Regel 3');
    expect(entryName('os', 'Mac OS')).toBe('macOS');
    expect(entryName('os', 'iOS')).toBe('iOS');
    expect(entryName('os', 'Chrome OS')).toBe('Chrome OS');
  });

  it('labels buckets by granularity in the time zone, and builds the CSV link', () => {
    expect(bucketLabel('2026-11-01T00:00:00Z', 'month', 'UTC')).toBe('November 2026');
    expect(bucketLabel('2026-11-23T23:00:00Z', 'day', 'Europe/Berlin')).toBe('24.11.2026');
    const url = statisticsCsvUrl('abc', rangeQuery('24h', now, 'UTC'));
    expect(url).toMatch(/^\/api\/code\/abc\/statistics\.csv\?from=.*&granularity=hour&tz=UTC$/);
  });
});

describe('withShares', () => {
  it('gives each entry its share of the list, as a fraction and as German text', () => {
    const rows = withShares([
      { name: 'google.com', count: 3 },
      { name: 'direct', count: 6 },
      { name: 'other', count: 1 },
    ]);
    expect(rows.map((r) => r.share)).toEqual([0.3, 0.6, 0.1]);
    // German percent: a (no-break) space before the sign.
    expect(rows.map((r) => r.percent.replace(/\s/g, ' '))).toEqual(['30 %', '60 %', '10 %']);
  });

  it("says '< 1 %' for a tiny share, and 0 % for an empty list", () => {
    const rows = withShares([
      { name: 'a', count: 999 },
      { name: 'b', count: 1 },
    ]);
    expect(rows[1].percent.replace(/\s/g, ' ')).toBe('< 1 %');
    expect(withShares([{ name: 'a', count: 0 }])[0]).toMatchObject({ share: 0 });
  });
});
