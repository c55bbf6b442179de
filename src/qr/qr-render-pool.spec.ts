import jsQR from 'jsqr';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PNG } from 'pngjs';
import { afterEach, describe, expect, it } from 'vitest';
import { BusyError } from '../common/errors';
import { QrRenderPool, type RenderPoolOptions } from './qr-render-pool';

/**
 * A stand-in worker for the pool's own behaviour: `sleep:N` answers after N ms of busy CPU,
 * `span:N` too, with when it started and ended; `hang` never answers, `crash` throws out of the
 * worker, `exit` ends it; anything else is echoed.
 */
const FAKE_WORKER = `
import { parentPort } from 'node:worker_threads';
parentPort.on('message', ({ text }) => {
  if (text === 'hang') for (;;);
  if (text === 'crash') setImmediate(() => { throw new Error('boom'); });
  else if (text === 'exit') process.exit(3);
  else {
    const start = Date.now();
    const until = start + (/^(sleep|span):/.test(text) ? Number(text.slice(text.indexOf(':') + 1)) : 0);
    while (Date.now() < until);
    const answer = text.startsWith('span:') ? JSON.stringify([start, Date.now()]) : text;
    const png = new TextEncoder().encode(answer);
    parentPort.postMessage({ png }, [png.buffer]);
  }
});
`;

const fakeScript = join(mkdtempSync(join(tmpdir(), 'qr-pool-')), 'fake.worker.mjs');
writeFileSync(fakeScript, FAKE_WORKER);

const job = (text: string) => ({ text, options: {} });

describe('QrRenderPool', () => {
  let pool: QrRenderPool | undefined;
  const lost: string[] = [];
  const make = (options: Partial<RenderPoolOptions> = {}) => {
    lost.length = 0;
    pool = new QrRenderPool({
      script: fakeScript,
      workers: 1,
      queue: 4,
      timeoutMs: 2000,
      onLost: (reason) => lost.push(reason),
      ...options,
    });
    return pool;
  };
  afterEach(async () => {
    await pool?.close();
    pool = undefined;
  });

  it('renders a real QR PNG off the main thread with the worker the app uses', async () => {
    const p = make({ script: join(__dirname, 'qr-render.worker.mjs') });
    const options = { margin: 4, errorCorrectionLevel: 'M', type: 'png', width: 256 };
    const png = PNG.sync.read(await p.run({ text: 'https://sho.rt/s/abc', options }));
    expect(png.width).toBe(256);
    expect(jsQR(new Uint8ClampedArray(png.data), png.width, png.height)?.data).toBe(
      'https://sho.rt/s/abc',
    );
  });

  it('abandons a render that takes too long (BusyError qr_busy) and replaces its worker', async () => {
    // The budget includes a new worker's start (the job after the hang runs on a new one): on a
    // loaded 2-core machine Node 24 took more than 300 ms to start one.
    const p = make({ timeoutMs: 1000 });
    const started = Date.now();
    const err = await p.run(job('hang')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BusyError);
    expect(err).toMatchObject({ status: 503, errorKey: 'qr_busy' });
    expect(Date.now() - started).toBeLessThan(5000); // the hang never ends by itself
    expect(lost).toEqual(['stopped after 1000 ms']);
    expect((await p.run(job('after'))).toString()).toBe('after');
  });

  it('a worker that crashes or exits fails its job only; the next job gets a new worker', async () => {
    const p = make();
    await expect(p.run(job('crash'))).rejects.toThrow('boom');
    expect((await p.run(job('one'))).toString()).toBe('one');
    await expect(p.run(job('exit'))).rejects.toThrow(/exited \(3\)/);
    expect((await p.run(job('two'))).toString()).toBe('two');
    expect(lost).toEqual(['crashed: boom', 'exited (3)']);
  });

  it('bounds the queue: beyond the workers and the queue, a job is refused at once', async () => {
    const p = make({ workers: 1, queue: 2 });
    const accepted = [p.run(job('sleep:200')), p.run(job('a')), p.run(job('b'))];
    expect(p.full).toBe(true);
    await expect(p.run(job('c'))).rejects.toMatchObject({ status: 503, errorKey: 'qr_busy' });
    expect((await Promise.all(accepted)).map(String)).toEqual(['sleep:200', 'a', 'b']);
    expect(p.full).toBe(false);
    expect((await p.run(job('d'))).toString()).toBe('d');
  });

  it('runs up to `workers` jobs at once', async () => {
    const p = make({ workers: 2 });
    const spans = (await Promise.all([p.run(job('span:300')), p.run(job('span:300'))])).map(
      (b) => JSON.parse(b.toString()) as [number, number],
    );
    // The two ran at the same time: each started before the other ended.
    expect(spans[0][0]).toBeLessThan(spans[1][1]);
    expect(spans[1][0]).toBeLessThan(spans[0][1]);
  });

  it('close fails waiting and running jobs and refuses new ones', async () => {
    const p = make();
    const jobs = Promise.allSettled([p.run(job('sleep:500')), p.run(job('later'))]);
    await p.close();
    for (const outcome of await jobs) {
      expect(outcome).toMatchObject({
        status: 'rejected',
        reason: { message: expect.stringMatching(/closed/) },
      });
    }
    await expect(p.run(job('x'))).rejects.toThrow('closed');
    expect(lost).toEqual([]);
  });
});
