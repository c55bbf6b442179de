import type { DataSource } from 'typeorm';
import { afterEach, describe, expect, it } from 'vitest';
import { familyOf, parseExposition } from '../../test/support/prometheus';
import { MetricsService } from './metrics.service';

const services: MetricsService[] = [];
function service(): MetricsService {
  const s = new MetricsService({ isInitialized: false } as unknown as DataSource);
  services.push(s);
  return s;
}
afterEach(() => {
  for (const s of services.splice(0)) s.onModuleDestroy();
});

describe('MetricsService', () => {
  it("names every metric url_shorter_…, Node's default ones included (issue 37)", async () => {
    const m = service();
    m.visits.inc();
    m.botHits.inc();
    m.recordHttp('GET', '/api/x', 200, 0.01);
    const { families, samples } = parseExposition((await m.render()).body);
    expect(families.size).toBeGreaterThan(20);
    expect([...families.keys()].filter((n) => !n.startsWith('url_shorter_'))).toEqual([]);
    for (const s of samples) expect(familyOf(s.name, families), s.name).toBeDefined();
    expect(families.get('url_shorter_visits_total')).toBe('counter');
    expect(families.get('url_shorter_bot_hits_total')).toBe('counter');
    expect(families.get('url_shorter_process_cpu_seconds_total')).toBe('counter');
    expect(families.get('url_shorter_event_loop_delay_seconds')).toBe('histogram');
    // Node's default event-loop gauges restart on every scrape: replaced by the histogram.
    expect([...families.keys()].filter((n) => n.includes('eventloop_lag'))).toEqual([]);
  });

  it('refuses a gauge whose name lacks the prefix', () => {
    const m = service();
    expect(() => m.gauge('backlog', 'x', () => 1)).toThrow(/url_shorter_/);
    m.gauge('url_shorter_test_gauge', 'x', () => 7);
  });

  it('keeps every event-loop observation across scrapes (two scrapers see them all)', async () => {
    const m = service();
    const count = async () =>
      parseExposition((await m.render()).body).samples.find(
        (s) => s.name === 'url_shorter_event_loop_delay_seconds_count',
      )!.value;
    await new Promise((r) => setTimeout(r, 60));
    const first = await count();
    expect(first).toBeGreaterThan(0);
    const second = await count();
    expect(second).toBeGreaterThanOrEqual(first);
    await new Promise((r) => setTimeout(r, 60));
    expect(await count()).toBeGreaterThan(second);
  });
});
