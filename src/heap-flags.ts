/**
 * V8 heap settings for a smaller resident set (docs/performance.md, "Memory"). Without them V8
 * lets the old generation grow to several times the live heap (about 60 MB) before its next full
 * collection, and the young generation grow to 2 × 16 MiB.
 *
 * - `--heap-growing-percent=20` (HEAP_FLAGS, set here at runtime): after a full collection the old
 *   generation may grow by 20 % of what survived before the next one (V8 picks up to 300 %). V8
 *   reads it at every collection, so main.ts sets it from inside the process (heap-setup.ts, its
 *   first import), before the app's modules load.
 * - `--max-semi-space-size` (START_FLAGS, on the start command: `npm start` and the Docker image's
 *   CMD, with START_ENV): V8 reads it once, when the heap is set up, so it cannot be set from inside the process.
 *   4 MiB: against 8, 20-36 MiB less resident after the bench's SQLite scenarios and no dearer per
 *   request (the bench's CPU per request, runs alternating; docs/performance.md). Not smaller: a
 *   young generation kept at 2 × 1 MiB made a follow cost 60 % more CPU (server CPU per 1,000
 *   follows 81 → 131 ms on SQLite), the scavenges of a busy follow path being that frequent.
 *
 * A flag the command line gives itself (`node --heap-growing-percent=50 dist/src/main.js`) is the
 * operator's: then it is not set here. NODE_OPTIONS is not read (the environment is read by
 * config/config.ts alone): a `--heap-growing-percent` given there is overridden.
 */
export const START_FLAGS = ['--max-semi-space-size=4'];

/**
 * The start command's environment (`npm start` sets it before `node`, the Docker image as ENV):
 * glibc's malloc keeps at most two arenas instead of eight per core, so the memory that SQLite,
 * the worker threads and libuv's pool free is reused rather than held in arenas of their own. The
 * bench's SQLite scenarios, three runs each: 164-173 against 176-178 MiB resident after the run
 * (anonymous memory 109-118 against 121-123 MiB), no dearer per follow. glibc reads it when the
 * process starts, so it cannot be set from inside it either.
 */
export const START_ENV: Readonly<Record<string, string>> = { MALLOC_ARENA_MAX: '2' };

/** The start command as package.json's `start` script holds it. */
export const START_COMMAND = [
  ...Object.entries(START_ENV).map(([k, v]) => `${k}=${v}`),
  'node',
  ...START_FLAGS,
  'dist/src/main.js',
].join(' ');

export const HEAP_FLAGS = ['--heap-growing-percent=20'];

/** The V8 name of a flag (`--heap_growing_percent=5` → `heap-growing-percent`). */
function flagName(arg: string): string {
  return arg.replace(/^--/, '').split('=')[0].replace(/_/g, '-');
}

/** The flags to set: those of HEAP_FLAGS that the command line does not set itself. */
export function heapFlags(execArgv: readonly string[]): string[] {
  const given = new Set(execArgv.filter((a) => a.startsWith('--')).map(flagName));
  return HEAP_FLAGS.filter((f) => !given.has(flagName(f)));
}
