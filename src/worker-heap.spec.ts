import { setFlagsFromString } from 'node:v8';
import { Worker } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import { flagValue } from './heap-flags';
import { startWorker } from './worker-heap';

/** A worker that makes short-lived garbage, then answers the size of its young generation (MiB). */
const SCRIPT = `
  const { getHeapSpaceStatistics } = require('node:v8');
  const { parentPort } = require('node:worker_threads');
  let keep = [];
  for (let i = 0; i < 2e6; i++) {
    keep.push({ i, s: 'x' + i });
    if (keep.length > 20000) keep = [];
  }
  const young = getHeapSpaceStatistics().find((s) => s.space_name === 'new_space');
  parentPort.postMessage(young.space_size / 2 ** 20);
`;

function youngOf(worker: Worker): Promise<number> {
  return new Promise((resolve, reject) => {
    worker.once('message', (mb: number) => {
      void worker.terminate();
      resolve(mb);
    });
    worker.once('error', reject);
  });
}

const limits = { maxYoungGenerationSizeMb: 6 }; // two semi-spaces of 2 MiB

describe('startWorker: a worker’s young generation under the start command’s semi-space flag', () => {
  // As `node --max-semi-space-size=8` (the start command) would have it.
  setFlagsFromString('--max-semi-space-size=8');
  afterAll(() => setFlagsFromString('--max-semi-space-size=0'));
  const execArgv = ['--max-semi-space-size=8'];

  it('the flag wins over resourceLimits in a plain Worker; startWorker gets the limit', async () => {
    const plain = await youngOf(new Worker(SCRIPT, { eval: true, resourceLimits: limits }));
    expect(plain).toBeGreaterThanOrEqual(8);
    const limited = await youngOf(
      startWorker(SCRIPT, { eval: true, resourceLimits: limits }, execArgv),
    );
    expect(limited).toBeLessThanOrEqual(4);
  });

  it('the flag is the start command’s again once the worker runs', async () => {
    const worker = startWorker(SCRIPT, { eval: true, resourceLimits: limits }, execArgv);
    await new Promise((r) => worker.once('online', r));
    await youngOf(worker);
    const after = await youngOf(new Worker(SCRIPT, { eval: true, resourceLimits: limits }));
    expect(after).toBeGreaterThanOrEqual(8);
  });

  it('reads the value the command line gives (the last one)', () => {
    expect(flagValue(['--max-semi-space-size=8', 'x.js'], 'max-semi-space-size')).toBe('8');
    expect(
      flagValue(['--max_semi_space_size=2', '--max-semi-space-size=4'], 'max-semi-space-size'),
    ).toBe('4');
    expect(flagValue(['--heap-growing-percent=20'], 'max-semi-space-size')).toBeUndefined();
  });
});
