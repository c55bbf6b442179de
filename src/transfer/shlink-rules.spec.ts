import { describe, expect, it } from 'vitest';
import { fromShlinkRules, isShlinkRules } from './shlink-rules';

const shlink = {
  defaultLongUrl: 'https://example.com/',
  redirectRules: [
    {
      longUrl: 'https://example.com/en',
      priority: 3,
      conditions: [{ type: 'language', matchKey: null, matchValue: 'en-US' }],
    },
    {
      longUrl: 'https://apps.apple.com/app/x',
      priority: 1,
      conditions: [{ type: 'device', matchKey: null, matchValue: 'ios' }],
    },
    {
      longUrl: 'https://example.com/office',
      priority: 2,
      conditions: [{ type: 'ip-address', matchKey: null, matchValue: '192.168.1.0/24' }],
    },
    {
      longUrl: 'https://example.com/campaign',
      priority: 4,
      conditions: [
        { type: 'query-param', matchKey: 'utm', matchValue: 'mail' },
        { type: 'geolocation-country-code', matchKey: null, matchValue: 'DE' },
        { type: 'device', matchKey: null, matchValue: 'desktop' },
      ],
    },
  ],
};

describe("Shlink's redirect rules", () => {
  it('are recognised in its answer and as a list; ours are not', () => {
    expect(isShlinkRules(shlink)).toBe(true);
    expect(isShlinkRules(shlink.redirectRules)).toBe(true);
    expect(
      isShlinkRules([{ conditions: [{ type: 'os', value: 'ios' }], url: 'https://x.example' }]),
    ).toBe(false);
    expect(isShlinkRules([])).toBe(false);
    expect(isShlinkRules('text')).toBe(false);
  });

  it('map in the order of their priority; a rule with a condition we cannot express is left out', () => {
    expect(fromShlinkRules(shlink)).toEqual([
      { conditions: [{ type: 'os', value: 'ios' }], url: 'https://apps.apple.com/app/x' },
      { conditions: [{ type: 'language', value: 'en-US' }], url: 'https://example.com/en' },
      {
        conditions: [
          { type: 'query', value: 'utm=mail' },
          { type: 'country', value: 'DE' },
          { type: 'device', value: 'desktop' },
        ],
        url: 'https://example.com/campaign',
      },
    ]);
  });

  it('android and the other systems become os conditions; unknown shapes are skipped, not thrown', () => {
    expect(
      fromShlinkRules([
        {
          longUrl: 'https://play.example',
          conditions: [{ type: 'device', matchValue: 'android' }],
        },
        {
          longUrl: 'https://cros.example',
          conditions: [{ type: 'device', matchValue: 'chromeos' }],
        },
        { longUrl: 'https://none.example', conditions: [] },
        { longUrl: 42, conditions: [{ type: 'device', matchValue: 'ios' }] },
        { longUrl: 'https://q.example', conditions: [{ type: 'query-param', matchValue: 'x' }] },
        null,
      ]),
    ).toEqual([{ conditions: [{ type: 'os', value: 'android' }], url: 'https://play.example' }]);
  });
});
