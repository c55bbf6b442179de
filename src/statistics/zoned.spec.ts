import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  bucketStart,
  bucketStarts,
  canonicalTimeZone,
  FULL,
  isTimeZone,
  maxBuckets,
  zoneCacheSizes,
} from './zoned';

const DAY = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();

/**
 * The oracle: V8's own local time (Date under process.env.TZ), a code path apart from the Intl
 * formatters zoned.ts reads, and about ten times faster than Intl. Node applies a change of
 * process.env.TZ at once (checked against Intl for every zone below).
 */
const probe = new Date(0);
const oracle = {
  /** Local wall time of `ms` (the local date and time read as UTC). */
  wall(ms: number): number {
    probe.setTime(ms);
    return ms - probe.getTimezoneOffset() * 60_000;
  },
  /** The local date of `ms` as days since 1970-01-01. */
  day(ms: number): number {
    return Math.floor(oracle.wall(ms) / DAY);
  },
  /** Whether `ms` is exactly local midnight. */
  midnight(ms: number): boolean {
    return oracle.wall(ms) % DAY === 0;
  },
  /** The local date and time, for messages. */
  text(ms: number): string {
    return iso(oracle.wall(ms)).slice(0, 19).replace('T', ' ');
  },
};

/** The offset at `ms` as Intl reports it, read the plain way (formatToParts). */
function intlOffset(tz: string, ms: number): number {
  const parts = new Intl.DateTimeFormat('en-US', { ...FULL, timeZone: tz }).formatToParts(ms);
  const n = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  return (
    Date.UTC(n('year'), n('month') - 1, n('day'), n('hour'), n('minute'), n('second')) -
    (ms - (ms % 1000))
  );
}

function withTz<T>(tz: string, fn: () => T): T {
  const saved = process.env.TZ;
  process.env.TZ = tz;
  try {
    return fn();
  } finally {
    if (saved === undefined) delete process.env.TZ;
    else process.env.TZ = saved;
  }
}

describe('bucket starts in every time zone, 2010–2027', () => {
  const FROM = Date.UTC(2010, 0, 1);
  const TO = Date.UTC(2028, 0, 1);

  it('day and month buckets: strictly increasing, each at the first instant of its local date, dates consecutive', () => {
    const zones = Intl.supportedValuesOf('timeZone');
    expect(zones.length).toBeGreaterThan(300);
    const problems: string[] = [];
    const lateStarts = new Map<string, string[]>(); // zone → local starts that are not midnight
    const skipped: string[] = []; // local dates without an instant (none of their own bucket)
    for (const tz of zones) {
      withTz(tz, () => {
        // The oracle follows the zone (a runtime that ignored the change would fail here).
        for (const ms of [Date.UTC(2012, 0, 15), Date.UTC(2019, 6, 15)]) {
          const own = -new Date(ms).getTimezoneOffset() * 60_000;
          if (own !== intlOffset(tz, ms)) problems.push(`${tz}: oracle off at ${iso(ms)}`);
        }
        const fail = (what: string, ms: number) =>
          problems.push(`${tz}: ${what} at ${iso(ms)} (${oracle.text(ms)})`);

        const days = bucketStarts(FROM, TO, 'day', tz);
        if (days.length > maxBuckets(FROM, TO, 'day')) fail('more days than maxBuckets', FROM);
        if (!(days[0] <= FROM && days[1] > FROM)) fail('first bucket does not hold from', days[0]);
        const last = days[days.length - 1];
        if (oracle.day(TO - 1) !== oracle.day(last)) fail('last bucket does not reach to', last);
        for (let i = 0; i < days.length; i++) {
          const s = days[i];
          if (oracle.day(s - 1) >= oracle.day(s)) fail('not the first instant of its date', s);
          if (!oracle.midnight(s)) {
            const list = lateStarts.get(tz) ?? [];
            list.push(oracle.text(s));
            lateStarts.set(tz, list);
          }
          if (i === 0) continue;
          const prev = days[i - 1];
          if (s <= prev) fail('not after the previous start', s);
          // The previous bucket holds exactly one local date: no date in between has an instant.
          if (oracle.day(s - 1) !== oracle.day(prev)) fail('a date was left out before', s);
          if (oracle.day(s) !== oracle.day(prev) + 1) skipped.push(`${tz} ${oracle.text(s - 1)}`);
        }

        const months = bucketStarts(FROM, TO, 'month', tz);
        const dayStarts = new Set(days);
        for (let i = 0; i < months.length; i++) {
          const s = months[i];
          if (s >= days[0] && !dayStarts.has(s)) fail('month start is no day start', s);
          const local = new Date(oracle.wall(s));
          if (local.getUTCDate() !== 1) fail('month start not on the 1st', s);
          if (i === 0) continue;
          const before = new Date(oracle.wall(months[i - 1]));
          const month = (d: Date) => d.getUTCFullYear() * 12 + d.getUTCMonth();
          if (month(local) !== month(before) + 1) fail('months not consecutive', s);
        }
        if (!(months[0] <= FROM && months[1] > FROM)) fail('first month does not hold from', FROM);
      });
    }
    expect(problems.slice(0, 20)).toEqual([]);
    // The zones of issue 18, whose DST begins at midnight: their first instant is 01:00.
    expect(lateStarts.get('America/Santiago')).toContain('2022-09-11 01:00:00');
    expect(lateStarts.get('America/Havana')).toContain('2024-03-10 01:00:00');
    expect(lateStarts.get('Atlantic/Azores')).toContain('2020-03-29 01:00:00');
    // Samoa skipped 30 December 2011 (the day before its first bucket of the 31st is the 29th).
    expect(skipped).toContain('Pacific/Apia 2011-12-29 23:59:59');
  }, 120_000); // about 2.8 million days: some seconds (longer on a busy machine)
});

describe('bucketStarts', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('America/Santiago: the day without a midnight starts at 01:00 (04:00Z); the loop moves on', () => {
    const from = Date.UTC(2022, 8, 9, 4);
    const days = bucketStarts(from, Date.UTC(2022, 8, 13, 3), 'day', 'America/Santiago');
    expect(days.map(iso)).toEqual([
      '2022-09-09T04:00:00.000Z', // 00:00 -04
      '2022-09-10T04:00:00.000Z', // 00:00 -04
      '2022-09-11T04:00:00.000Z', // 01:00 -03: 00:00 does not exist
      '2022-09-12T03:00:00.000Z', // 00:00 -03
    ]);
    expect(iso(bucketStart(Date.UTC(2022, 8, 11, 12), 'day', 'america/santiago'))).toBe(
      '2022-09-11T04:00:00.000Z',
    );
    // Paraguay's DST began at midnight on 1 October 2017: that month starts at 01:00.
    const months = bucketStarts(
      Date.UTC(2017, 7, 15),
      Date.UTC(2017, 11, 1),
      'month',
      'America/Asuncion',
    );
    expect(months.map(iso)).toEqual([
      '2017-08-01T04:00:00.000Z',
      '2017-09-01T04:00:00.000Z',
      '2017-10-01T04:00:00.000Z', // 01:00 -03
      '2017-11-01T03:00:00.000Z',
    ]);
  });

  it('the first instants kept per zone answer as the Intl calls did, also for ranges that go on from them', () => {
    const zones = [
      'America/Santiago',
      'America/Havana',
      'Atlantic/Azores',
      'Pacific/Apia',
      'Australia/Lord_Howe',
      'Europe/Berlin',
    ];
    const from = Date.UTC(2011, 2, 3, 7);
    for (const tz of zones) {
      const first = bucketStarts(from, from + 400 * DAY, 'day', tz); // fills the zone's dates
      expect(bucketStarts(from, from + 400 * DAY, 'day', tz)).toEqual(first);
      // Starts within the known dates and goes on after them (the last known offset carries on).
      const later = bucketStarts(from + 200 * DAY, from + 700 * DAY, 'day', tz);
      const overlap = first.filter((s) => s >= later[0]);
      expect(later.slice(0, overlap.length)).toEqual(overlap);
      // Each start is the first instant of its local date (the instant before is the day before).
      const late = withTz(tz, () => later.filter((s) => oracle.day(s - 1) >= oracle.day(s)));
      expect(late).toEqual([]);
    }
  });

  it('hours: whole local hours, half past in half-hour zones; at most maxBuckets', () => {
    const from = Date.UTC(2026, 0, 1, 10, 17);
    const hours = bucketStarts(from, from + 31 * DAY, 'hour', 'Asia/Kolkata');
    expect(hours).toHaveLength(31 * 24 + 1);
    expect(hours.length).toBeLessThanOrEqual(maxBuckets(from, from + 31 * DAY, 'hour'));
    expect(iso(hours[0])).toBe('2026-01-01T09:30:00.000Z');
    expect(hours.every((h, i) => i === 0 || h - hours[i - 1] === 3_600_000)).toBe(true);
  });

  it('whatever Intl answers, the loop stops with an error after the steps the range can hold', () => {
    // Dates no other test asked for: none of their first instants is known yet (Zone.dates).
    const from = Date.UTC(2031, 0, 1);
    // An Intl that always says 1970-01-01 00:00 (and nothing the midnight check can read) puts
    // every date's first instant far before `to`: the old loop would never have ended.
    // `format` is a getter answering a function bound to the formatter.
    const proto = Intl.DateTimeFormat.prototype as unknown as { readonly format: unknown };
    vi.spyOn(proto, 'format', 'get').mockImplementation(function (this: Intl.DateTimeFormat) {
      const answer = this.resolvedOptions().year ? '1/1/1970, 00:00:00' : 'x';
      return () => answer;
    });
    vi.spyOn(Intl.DateTimeFormat.prototype, 'formatToParts').mockReturnValue([
      { type: 'month', value: '1' },
      { type: 'day', value: '1' },
      { type: 'year', value: '1970' },
      { type: 'hour', value: '0' },
      { type: 'minute', value: '0' },
      { type: 'second', value: '0' },
    ]);
    expect(() => bucketStarts(from, from + 400 * DAY, 'day', 'Europe/Berlin')).toThrow(
      /more than 404 day buckets/,
    );
    expect(() => bucketStarts(from, from + 400 * DAY, 'month', 'Europe/Berlin')).toThrow(
      /more than \d+ month buckets/,
    );
  });

  it('refuses ranges that are not numbers', () => {
    expect(() => bucketStarts(NaN, 0, 'day', 'UTC')).toThrow(RangeError);
    expect(() => bucketStarts(0, Infinity, 'day', 'UTC')).toThrow(RangeError);
  });
});

describe('time zone names', () => {
  it('are matched case-insensitively and answered in their canonical spelling', () => {
    expect(canonicalTimeZone('europe/berlin')).toBe('Europe/Berlin');
    expect(canonicalTimeZone('EUROPE/BERLIN')).toBe('Europe/Berlin');
    expect(canonicalTimeZone('America/SANTIAGO')).toBe('America/Santiago');
    expect(canonicalTimeZone('utc')).toBe('UTC');
    for (const bad of ['', 'Mars/Olympus', 'Europe/Berlin/', 'x'.repeat(65), 'Europe/Berlin\0']) {
      expect(canonicalTimeZone(bad), JSON.stringify(bad)).toBeUndefined();
      expect(isTimeZone(bad)).toBe(false);
    }
    expect(isTimeZone('asia/kolkata')).toBe(true);
  });

  it('caches stay bounded: every zone in many spellings, unknown ones never kept', () => {
    const zones = Intl.supportedValuesOf('timeZone');
    const before = zoneCacheSizes().spellings;
    for (let i = 0; i < 2_000; i++) {
      const raw = `Mars/Zone${i}`;
      expect(canonicalTimeZone(raw)).toBeUndefined();
    }
    expect(zoneCacheSizes().spellings).toBe(before);
    let seed = 18;
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    const spell = (tz: string) =>
      [...tz].map((c) => (random() < 0.5 ? c.toLowerCase() : c.toUpperCase())).join('');
    for (const tz of zones) {
      for (let k = 0; k < 5; k++) {
        const name = canonicalTimeZone(spell(tz));
        expect(name).toBeDefined();
        expect(name?.toLowerCase()).toBe(canonicalTimeZone(tz)?.toLowerCase());
      }
      bucketStart(Date.UTC(2026, 0, 1), 'day', tz);
    }
    const sizes = zoneCacheSizes();
    expect(sizes.zones).toBeLessThanOrEqual(32);
    // One entry per zone, whatever the spelling (never more than the cap).
    expect(sizes.spellings).toBeLessThanOrEqual(Math.min(1_000, before + zones.length));
  });
});
