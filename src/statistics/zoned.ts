/** Calendar arithmetic in an IANA time zone with Intl only (the statistics' buckets). */

export type Granularity = 'hour' | 'day' | 'month';

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(tz: string): Intl.DateTimeFormat {
  let f = formatters.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: tz,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(tz, f);
  }
  return f;
}

/** Whether `tz` is a time zone Intl knows. */
export function isTimeZone(tz: string): boolean {
  try {
    formatter(tz);
    return true;
  } catch {
    return false;
  }
}

interface Parts {
  y: number;
  m: number;
  d: number;
  h: number;
  min: number;
  s: number;
}

function partsOf(ms: number, tz: string): Parts {
  const p: Record<string, number> = {};
  for (const { type, value } of formatter(tz).formatToParts(new Date(ms))) p[type] = Number(value);
  return { y: p.year, m: p.month, d: p.day, h: p.hour, min: p.minute, s: p.second };
}

const OFFSET_SLOT_MS = 15 * 60_000;
const offsets = new Map<string, number>();

/**
 * The offset of `tz` from UTC at the instant `ms`, in ms. Offsets change only on a quarter hour, so
 * they are remembered per quarter hour (formatToParts is the slow part of bucketing a year by day).
 */
function offsetAt(ms: number, tz: string): number {
  const key = `${tz}|${Math.floor(ms / OFFSET_SLOT_MS)}`;
  const hit = offsets.get(key);
  if (hit !== undefined) return hit;
  const p = partsOf(ms, tz);
  const offset = Date.UTC(p.y, p.m - 1, p.d, p.h, p.min, p.s) - (ms - (ms % 1000));
  if (offsets.size >= 100_000) offsets.clear();
  offsets.set(key, offset);
  return offset;
}

/** The local calendar date and hour of `ms` in `tz`, read through the offset. */
function localOf(ms: number, tz: string): { y: number; m: number; d: number } {
  const local = new Date(ms + offsetAt(ms, tz));
  return { y: local.getUTCFullYear(), m: local.getUTCMonth() + 1, d: local.getUTCDate() };
}

/** The instant of a local wall time in `tz` (month and day may overflow, as with Date.UTC). */
function zoned(y: number, m: number, d: number, h: number, tz: string): number {
  const guess = Date.UTC(y, m - 1, d, h);
  let ms = guess - offsetAt(guess, tz);
  const again = guess - offsetAt(ms, tz);
  if (again !== ms) ms = again; // across a DST change
  return ms;
}

/** The start of the bucket that holds `ms`. */
export function bucketStart(ms: number, g: Granularity, tz: string): number {
  const p = partsOf(ms, tz);
  if (g === 'hour') return ms - ((p.min * 60 + p.s) * 1000 + (ms % 1000));
  if (g === 'day') return zoned(p.y, p.m, p.d, 0, tz);
  return zoned(p.y, p.m, 1, 0, tz);
}

/** The start of the bucket after the one starting at `start`. */
export function nextBucket(start: number, g: Granularity, tz: string): number {
  if (g === 'hour') return start + 3_600_000;
  const p = localOf(start, tz);
  return g === 'day' ? zoned(p.y, p.m, p.d + 1, 0, tz) : zoned(p.y, p.m + 1, 1, 0, tz);
}

/** Every bucket start from the one holding `from` up to (not including) `to`. */
export function bucketStarts(from: number, to: number, g: Granularity, tz: string): number[] {
  const starts: number[] = [];
  for (let s = bucketStart(from, g, tz); s < to; s = nextBucket(s, g, tz)) starts.push(s);
  return starts;
}
