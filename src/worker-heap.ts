import { setFlagsFromString } from 'node:v8';
import { Worker, type WorkerOptions } from 'node:worker_threads';
import { flagValue } from './heap-flags';

/**
 * A worker thread whose young generation is the one its `resourceLimits` ask for.
 *
 * V8 flags are the process's: the start command's `--max-semi-space-size` (START_FLAGS, 8 MiB) is
 * every isolate's, and V8 takes it over a worker's `maxYoungGenerationSizeMb`: a worker that
 * writes a batch now and then grew the main thread's young generation of 2 × 8 MiB all the same.
 * So the flag is unset while the worker's isolate is set up (the main thread's heap read it once,
 * at start) and given its value again once the worker runs (JavaScript on it: the isolate is
 * there), so that other workers keep the start command's setting. A worker started by another
 * module in between would get V8's default.
 */
export function startWorker(
  script: string | URL,
  options: WorkerOptions & { resourceLimits: { maxYoungGenerationSizeMb: number } },
  execArgv: readonly string[] = process.execArgv,
): Worker {
  const semiSpace = flagValue(execArgv, 'max-semi-space-size');
  if (semiSpace === undefined) return new Worker(script, options);
  setFlagsFromString('--max-semi-space-size=0');
  let worker: Worker;
  try {
    worker = new Worker(script, options);
  } catch (err) {
    setFlagsFromString(`--max-semi-space-size=${semiSpace}`);
    throw err;
  }
  let restored = false;
  const restore = () => {
    if (restored) return;
    restored = true;
    setFlagsFromString(`--max-semi-space-size=${semiSpace}`);
  };
  worker.once('online', restore);
  worker.once('exit', restore); // also after a worker that failed to start
  return worker;
}
