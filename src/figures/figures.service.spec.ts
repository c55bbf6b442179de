import { describe, expect, it, vi } from 'vitest';
import type { UserService } from '../account/user.service';
import type { AppConfig } from '../config/config';
import type { ShortViewService } from '../shorts/short-view.service';
import { FIGURES_TTL_MS, FiguresService, floorFigure } from './figures.service';

describe('floorFigure', () => {
  it('rounds down to a leading digit and zeros; under 10 is 0 (no card)', () => {
    expect([0, 1, 9, 10, 41, 99, 300, 349, 1234, 99_999, 1_000_001].map(floorFigure)).toEqual([
      0, 0, 0, 10, 40, 90, 300, 300, 1000, 90_000, 1_000_000,
    ]);
  });
  it('is never negative', () => {
    expect(floorFigure(-5)).toBe(0);
    expect(floorFigure(Number.NaN)).toBe(0);
  });
});

function service(mode: 'static' | 'live' | 'off', totals = vi.fn(), count = vi.fn()) {
  const config = { web: { homeFigures: mode } } as unknown as AppConfig;
  return new FiguresService(
    { totals } as unknown as ShortViewService,
    { count } as unknown as UserService,
    config,
  );
}

describe('FiguresService', () => {
  it('counts at most once a minute, and shares a running count', async () => {
    const totals = vi.fn().mockResolvedValue({ shorts: 1234, uses: 56 });
    const count = vi.fn().mockResolvedValue(41);
    const s = service('live', totals, count);
    const [a, b] = await Promise.all([s.figures(1000), s.figures(1001)]);
    expect(a).toEqual({ links: 1000, visits: 50, users: 40 });
    expect(b).toBe(a);
    await s.figures(1000 + FIGURES_TTL_MS - 1);
    expect(totals).toHaveBeenCalledTimes(1);
    totals.mockResolvedValue({ shorts: 2000, uses: 56 });
    expect((await s.figures(1000 + FIGURES_TTL_MS)).links).toBe(2000);
    expect(totals).toHaveBeenCalledTimes(2);
    expect(count).toHaveBeenCalledTimes(2);
  });

  it('keeps no failed count', async () => {
    const totals = vi
      .fn()
      .mockRejectedValueOnce(new Error('database away'))
      .mockResolvedValue({ shorts: 15, uses: 0 });
    const s = service('live', totals, vi.fn().mockResolvedValue(0));
    await expect(s.figures(0)).rejects.toThrow('database away');
    expect(await s.figures(1)).toEqual({ links: 10, visits: 0, users: 0 });
  });

  it('answers 404 unless HOME_FIGURES=live, without counting', async () => {
    for (const mode of ['static', 'off'] as const) {
      const totals = vi.fn();
      await expect(service(mode, totals).figures()).rejects.toMatchObject({ status: 404 });
      expect(totals).not.toHaveBeenCalled();
    }
  });
});
