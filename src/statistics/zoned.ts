/**
 * Calendar arithmetic in an IANA time zone with Intl only (the statistics' buckets).
 *
 * Local times are handled as "wall" milliseconds: the local date and time read as if it were UTC
 * (wall = instant + offset). A local date starts at its first instant: local midnight, or where
 * midnight does not exist (a DST change at 00:00, as in America/Santiago) the first instant after
 * it (01:00). Requests choose the zone, so every cache here is keyed by the canonical name and
 * bounded.
 */
import { LRUCache } from 'lru-cache';
import { DAY_MS, HOUR_MS } from './traits';

export type Granularity = 'hour' | 'day' | 'month';

const SECOND_MS = 1_000;

/** The longest IANA name has 32 characters; longer input is no zone (and never reaches Intl). */
const MAX_ZONE_LENGTH = 64;
/** Zones whose formatters are kept (two each, about 25 KB apiece). */
const MAX_ZONES = 32;
/** First instants of local dates kept per zone (Zone.dates; a year by day needs 366, 31 bytes each). */
const MAX_DATES = 2_000;
/** Spellings remembered (lower case → canonical name; only zones Intl accepts). */
const MAX_SPELLINGS = 1_000;

interface Zone {
  readonly name: string;
  /**
   * The first instant of local dates (wall ms of their midnight → [instant, offset there]) found
   * so far: a fact of the zone's rules, kept for the next request (at most MAX_DATES, then
   * started over).
   */
  readonly dates: Map<number, readonly [number, number]>;
  /** Date and time to the second: the offset at an instant. */
  readonly full: Intl.DateTimeFormat;
  /** Day of the month and time (`13, 00:00:00`, 25 % cheaper): whether an instant is midnight. */
  readonly dayTime: Intl.DateTimeFormat;
}

const canonicalNames = new LRUCache<string, string>({ max: MAX_SPELLINGS });
const zones = new LRUCache<string, Zone>({ max: MAX_ZONES });

/** Date and time to the second, as numbers (the offset at an instant; tests read it too). */
export const FULL: Intl.DateTimeFormatOptions = {
  hourCycle: 'h23',
  year: 'numeric',
  month: 'numeric',
  day: 'numeric',
  hour: 'numeric',
  minute: 'numeric',
  second: 'numeric',
};
const DAY_TIME: Intl.DateTimeFormatOptions = {
  hourCycle: 'h23',
  day: 'numeric',
  hour: 'numeric',
  minute: 'numeric',
  second: 'numeric',
};

/**
 * The canonical name of a time zone, matched case-insensitively (`europe/berlin` →
 * `Europe/Berlin`; a link answers the name the runtime's ICU data gives it, e.g. `US/Eastern` →
 * `America/New_York`), or undefined when Intl does not know it.
 */
export function canonicalTimeZone(raw: string): string | undefined {
  if (raw.length === 0 || raw.length > MAX_ZONE_LENGTH) return undefined;
  const key = raw.toLowerCase();
  const hit = canonicalNames.get(key);
  if (hit !== undefined) return hit;
  let name: string;
  try {
    name = new Intl.DateTimeFormat('en-US', { timeZone: raw }).resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
  canonicalNames.set(key, name);
  return name;
}

/** Whether `tz` is a time zone Intl knows (in any spelling). */
export function isTimeZone(tz: string): boolean {
  return canonicalTimeZone(tz) !== undefined;
}

function zone(tz: string): Zone {
  const name = canonicalTimeZone(tz);
  if (name === undefined) throw new RangeError('Unknown time zone');
  let z = zones.get(name);
  if (!z) {
    z = {
      name,
      dates: new Map(),
      full: new Intl.DateTimeFormat('en-US', { ...FULL, timeZone: name }),
      dayTime: new Intl.DateTimeFormat('en-US', { ...DAY_TIME, timeZone: name }),
    };
    zones.set(name, z);
  }
  return z;
}

/** Sizes of the caches a request can key (tests, diagnostics). */
export function zoneCacheSizes(): { spellings: number; zones: number } {
  return { spellings: canonicalNames.size, zones: zones.size };
}

const mod = (a: number, b: number) => ((a % b) + b) % b;

/** Date.UTC without its mapping of the years 0–99 to 1900–1999. */
function utc(y: number, m: number, d: number, h = 0, min = 0, s = 0): number {
  if (y >= 100) return Date.UTC(y, m - 1, d, h, min, s);
  const date = new Date(0);
  date.setUTCFullYear(y, m - 1, d);
  date.setUTCHours(h, min, s, 0);
  return date.getTime();
}

/** en-US numeric: `9/13/2020, 09:26:40`. */
const FORMATTED = /^(\d+)\/(\d+)\/(\d+),? (\d+):(\d+):(\d+)$/;

function wallByFormat(f: Intl.DateTimeFormat, ms: number): number | undefined {
  const p = FORMATTED.exec(f.format(ms));
  return p ? utc(+p[3], +p[1], +p[2], +p[4], +p[5], +p[6]) : undefined;
}

function wallByParts(f: Intl.DateTimeFormat, ms: number): number {
  const n: Partial<Record<Intl.DateTimeFormatPartTypes, number>> = {};
  for (const { type, value } of f.formatToParts(ms)) n[type] = Number(value);
  return utc(n.year ?? 0, n.month ?? 0, n.day ?? 0, n.hour ?? 0, n.minute ?? 0, n.second ?? 0);
}

/** Whether this runtime's format() reads as FORMATTED (3× faster than formatToParts). */
const formatReadable = (() => {
  const f = new Intl.DateTimeFormat('en-US', { ...FULL, timeZone: 'Asia/Kolkata' });
  return [0, 1_700_000_000_000, 4_102_444_799_000].every(
    (ms) => wallByFormat(f, ms) === wallByParts(f, ms),
  );
})();

/** The offset of the zone from UTC at the instant `ms`, in ms. */
function offsetAt(z: Zone, ms: number): number {
  const wall = (formatReadable ? wallByFormat(z.full, ms) : undefined) ?? wallByParts(z.full, ms);
  return wall - (ms - mod(ms, SECOND_MS));
}

const midnightText = (dayOfMonth: number) => `${dayOfMonth}, 00:00:00`;
/** Whether this runtime's DAY_TIME format() reads as midnightText (else offsets are compared). */
const midnightReadable =
  new Intl.DateTimeFormat('en-US', { ...DAY_TIME, timeZone: 'UTC' }).format(
    Date.UTC(2020, 8, 13),
  ) === midnightText(13);

/** Whether the instant `t` is the local midnight `wall` (one Intl call). */
function isMidnight(z: Zone, t: number, wall: number): boolean {
  if (!midnightReadable) return t + offsetAt(z, t) === wall;
  return z.dayTime.format(t) === midnightText(new Date(wall).getUTCDate());
}

/**
 * The first instant whose local time is at or after the local midnight `wall`, and the offset
 * there: midnight itself, or in a DST gap the change (01:00 when 00:00 does not exist). The
 * offsets a day before and after decide: the earlier midnight when it exists (the first of a
 * repeated midnight), else the later, else the change between them, found by bisection. This
 * holds where the offset changes at most once within two days (tzdata since 1970: changes are at
 * least 6.96 days apart; the unit test checks every zone's days of 2010–2027 against V8's clock).
 */
function firstInstant(z: Zone, wall: number): [start: number, offset: number] {
  const early = offsetAt(z, wall - DAY_MS);
  const atEarly = wall - early;
  if (offsetAt(z, atEarly) === early) return [atEarly, early];
  const late = offsetAt(z, wall + DAY_MS);
  const atLate = wall - late;
  if (offsetAt(z, atLate) === late) return [atLate, late];
  // Midnight falls into a gap: the first instant after it is the change, between the two.
  let lo = Math.min(atEarly, atLate); // before midnight on the clock
  let hi = Math.max(atEarly, atLate); // after it
  while (hi - lo > 1) {
    const mid = lo + Math.floor((hi - lo) / 2);
    if (mid + offsetAt(z, mid) >= wall) hi = mid;
    else lo = mid;
  }
  return [hi, offsetAt(z, hi)];
}

/** The local midnight (wall ms) of the day or month holding the instant `ms`. */
function wallStart(z: Zone, ms: number, g: 'day' | 'month'): number {
  const wall = ms + offsetAt(z, ms);
  const day = wall - mod(wall, DAY_MS);
  if (g === 'day') return day;
  const d = new Date(day);
  return utc(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
}

function nextWall(wall: number, g: 'day' | 'month'): number {
  if (g === 'day') return wall + DAY_MS;
  const d = new Date(wall);
  return utc(d.getUTCFullYear(), d.getUTCMonth() + 2, 1);
}

/** The start of the hour bucket holding `ms` (whole local hours; half past in half-hour zones). */
function hourStart(z: Zone, ms: number): number {
  return ms - mod(ms + offsetAt(z, ms), HOUR_MS);
}

/** The start of the bucket that holds `ms`. */
export function bucketStart(ms: number, g: Granularity, tz: string): number {
  const z = zone(tz);
  return g === 'hour' ? hourStart(z, ms) : firstInstant(z, wallStart(z, ms, g))[0];
}

/**
 * How many buckets [from, to) can hold: the local days (or months) it touches, which exceed the
 * range by less than two days as offsets lie within ±16 h; hours plus one.
 */
export function maxBuckets(from: number, to: number, g: Granularity): number {
  const span = Math.max(0, to - from);
  if (g === 'hour') return Math.ceil(span / HOUR_MS) + 1;
  if (g === 'day') return Math.ceil(span / DAY_MS) + 4;
  return Math.ceil(span / (28 * DAY_MS)) + 4;
}

/**
 * Every bucket start from the one holding `from` up to (not including) `to`, strictly increasing.
 * Each step advances one local date (or month). Usually the next date begins at its midnight under
 * the previous start's offset (one Intl call; with at most one offset change a day, that midnight
 * is the date's first instant); otherwise (a DST change, a skipped date) firstInstant decides. The
 * dates' first instants are kept per zone (Zone.dates), so a repeated range makes no Intl call. More
 * steps than the range can hold stop with an error, so no zone data can make the loop spin.
 */
export function bucketStarts(from: number, to: number, g: Granularity, tz: string): number[] {
  if (!Number.isFinite(from) || !Number.isFinite(to)) throw new RangeError('Not a time range');
  const z = zone(tz);
  const starts: number[] = [];
  const limit = maxBuckets(from, to, g);
  if (g === 'hour') {
    for (let s = hourStart(z, from); s < to; s += HOUR_MS) {
      if (starts.length >= limit) throw tooMany(limit, g, z);
      starts.push(s);
    }
    return starts;
  }
  let wall = wallStart(z, from, g);
  let [s, offset] = firstInstant(z, wall);
  for (let steps = 0; s < to; steps++) {
    if (steps >= limit) throw tooMany(limit, g, z);
    if (starts.length === 0 || s > starts[starts.length - 1]) starts.push(s);
    wall = nextWall(wall, g);
    const known = z.dates.get(wall);
    if (known) [s, offset] = known;
    else {
      if (isMidnight(z, wall - offset, wall)) s = wall - offset;
      else [s, offset] = firstInstant(z, wall);
      if (z.dates.size >= MAX_DATES) z.dates.clear();
      z.dates.set(wall, [s, offset]);
    }
  }
  return starts;
}

function tooMany(limit: number, g: Granularity, z: Zone): Error {
  return new Error(`Statistics: more than ${limit} ${g} buckets in ${z.name}`);
}
