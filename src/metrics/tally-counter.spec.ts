import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { TallyCounter } from './metrics.service';

describe('TallyCounter', () => {
  it('every increment shows in the registry, by label value, across reads', async () => {
    const registry = new Registry();
    const follows = new TallyCounter(
      { name: 'f_total', help: 'f', labelNames: ['outcome'], registers: [registry] },
      'outcome',
    );
    const plain = new TallyCounter({ name: 'p_total', help: 'p', registers: [registry] });
    for (let i = 0; i < 3; i++) follows.inc('target');
    follows.inc('not-found');
    plain.inc();
    let text = await registry.metrics();
    expect(text).toContain('f_total{outcome="target"} 3');
    expect(text).toContain('f_total{outcome="not-found"} 1');
    expect(text).toContain('p_total 1');
    // A second read adds only what came since the first.
    follows.inc('target');
    text = await registry.metrics();
    expect(text).toContain('f_total{outcome="target"} 4');
    expect(text).toContain('f_total{outcome="not-found"} 1');
    expect(text).toContain('p_total 1');
    expect(
      (await follows.counter.get()).values.find((v) => v.labels.outcome === 'target')?.value,
    ).toBe(4);
  });
});
