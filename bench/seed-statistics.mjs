// The statistics data of the benchmarks (bench/run.mjs, bench/statistics-read.mjs).
import { createHash, randomBytes, randomUUID } from 'node:crypto';

/**
 * A user with an API key, and a short of theirs (its target `url`) with 365 days of hourly buckets
 * and daily values up to `now`, with the rollups the app's batches write beside them
 * (src/statistics/rollups.ts), through `bulk(table, columns, rows)`. Returns the short's id, the
 * API key and `from`, a year before `now`.
 */
export async function seedStatistics(bulk, url, now = Date.now()) {
  const created = new Date(now).toISOString().slice(0, 23).replace('T', ' ');
  const userId = randomUUID();
  const shortId = randomUUID();
  const apiKey = `us_${randomBytes(32).toString('base64url')}`;
  await bulk(
    'users',
    ['id', 'username', 'activated', 'provider', 'provider_user_id', 'roles', 'created_date'],
    // An admin: it also adds the shared own domain of the own-domain follow.
    [[userId, 'bench', 1, 'bench', userId, 'ROLE_USER,ROLE_ADMIN', created]],
  );
  await bulk(
    'api_keys',
    ['id', 'user_id', 'key_hash', 'key_encrypted', 'created_at', 'name', 'scopes'],
    [
      [
        randomUUID(),
        userId,
        createHash('sha256').update(apiKey).digest('hex'),
        'bench',
        created,
        'bench',
        // Every scope: the bench's admin adds a shared domain, shorts, webhooks and reads statistics.
        'shorts:read,shorts:write,statistics:read,domains:read,domains:write,webhooks:write',
      ],
    ],
  );
  await bulk(
    'shorts',
    ['id', 'code', 'url', 'uses', 'created_at', 'dangerous', 'owner_id'],
    [[shortId, 'bench-stats', url, 0, created, 0, userId]],
  );
  const hourNow = Math.floor(now / 3_600_000);
  const hourly = [];
  for (let h = hourNow - 365 * 24; h <= hourNow; h++) {
    const visits = (h * 7919) % 23;
    hourly.push([shortId, h, visits, Math.ceil(visits / 2), h % 3]);
  }
  await bulk('stats_hourly', ['short_id', 'hour_no', 'visits', 'visitors', 'bots'], hourly);
  // The rollups the app's batches write beside them (src/statistics/rollups.ts).
  const daily = new Map();
  for (const [, h, visits, visitors, bots] of hourly) {
    const d = Math.floor(h / 24);
    const sum = daily.get(d) ?? [shortId, d, 0, 0, 0];
    sum[2] += visits;
    sum[3] += visitors;
    sum[4] += bots;
    daily.set(d, sum);
  }
  await bulk(
    'stats_daily',
    ['short_id', 'day_no', 'visits', 'visitors', 'bots'],
    [...daily.values()],
  );
  const names = {
    referrer: ['direct', 'google.com', 't.co', 'reddit.com', 'news.ycombinator.com', 'bing.com'],
    country: ['DE', 'US', 'FR', 'AT', 'CH', 'NL', 'GB', 'unknown'],
    browser: ['Chrome', 'Firefox', 'Safari', 'Mobile Safari', 'Edge'],
    os: ['Windows', 'Mac OS', 'iOS', 'Android', 'Linux'],
    device: ['desktop', 'mobile', 'tablet'],
  };
  const values = [];
  const dayNow = Math.floor(hourNow / 24);
  for (let d = dayNow - 365; d <= dayNow; d++) {
    for (const [dim, list] of Object.entries(names)) {
      list.forEach((name, i) => values.push([shortId, d, dim, name, ((d + i) * 31) % 97]));
    }
  }
  await bulk('stats_values', ['short_id', 'day_no', 'dim', 'name', 'hits'], values);
  const spans = new Map();
  for (const [, d, dim, name, hits] of values) {
    const k = `${Math.floor(d / 16)} ${dim} ${name}`;
    const sum = spans.get(k) ?? [shortId, Math.floor(d / 16), dim, name, 0];
    sum[4] += hits;
    spans.set(k, sum);
  }
  await bulk(
    'stats_value_spans',
    ['short_id', 'span_no', 'dim', 'name', 'hits'],
    [...spans.values()],
  );
  return { shortId, apiKey, from: new Date(now - 365 * 86_400_000).toISOString() };
}
