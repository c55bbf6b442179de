import type { INestApplication } from '@nestjs/common';
import { describe, expect, it, vi } from 'vitest';
import { exitOnStopSignals } from './stop-signals';

function appClosing(result: Promise<void>): INestApplication {
  return { close: vi.fn(() => result) } as unknown as INestApplication;
}

describe('exitOnStopSignals', () => {
  it('closes the app once on SIGTERM and exits 0; a second signal changes nothing', async () => {
    const app = appClosing(Promise.resolve());
    const exit = vi.fn();
    const lines: string[] = [];
    exitOnStopSignals(app, { write: (_l, _n, m) => lines.push(m) }, exit);
    process.emit('SIGTERM');
    process.emit('SIGINT');
    await vi.waitFor(() => expect(exit).toHaveBeenCalled());
    expect(app.close).toHaveBeenCalledTimes(1);
    expect(exit.mock.calls).toEqual([[0]]);
    expect(lines).toEqual(['SIGTERM: stopping']);
  });

  it('exits 1 with the reason when the shutdown fails', async () => {
    const app = appClosing(Promise.reject(new Error('pool stuck')));
    const exit = vi.fn();
    const lines: string[] = [];
    exitOnStopSignals(app, { write: (_l, _n, m) => lines.push(m) }, exit);
    process.emit('SIGINT');
    await vi.waitFor(() => expect(exit).toHaveBeenCalled());
    expect(exit.mock.calls).toEqual([[1]]);
    expect(lines.at(-1)).toBe('The shutdown failed: pool stuck');
    process.emit('SIGTERM'); // the once-listener left from this test is used up here
  });
});
