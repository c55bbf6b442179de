/**
 * V8 heap settings for a smaller resident set (docs/performance.md, "Memory"). Without them V8
 * lets the old generation grow to several times the live heap (about 65 MB) before its next full
 * collection.
 *
 * - `--heap-growing-percent=20`: after a full collection the old generation may grow by 20 % of
 *   what survived before the next one (V8 picks up to 300 % by itself).
 *
 * Not `--semi-space-growth-factor=1` (a young generation kept at 2 × 1 MiB, which took another
 * 25-30 MiB off): it made a follow cost 60 % more CPU (server CPU per 1,000 follows 81 → 131 ms on
 * SQLite, 2.5 times with two instances), the scavenges of a busy follow path being that frequent.
 *
 * V8 reads the flag at every collection, so it works when set from inside the process, before the
 * app's modules load (the start command is plain `node dist/src/main.js`; main.ts imports
 * heap-setup.ts first). `--max-semi-space-size` and `--max-old-space-size` would not: V8 reads them once,
 * when the heap is set up. A heap flag given on the command line (`node --max-semi-space-size=8
 * dist/src/main.js`) means the operator tunes the heap: then nothing is set. NODE_OPTIONS is not
 * read (the environment is read by config/config.ts alone): a `--heap-growing-percent` given there
 * is overridden, any other heap flag given there applies beside this one.
 */
export const HEAP_FLAGS = ['--heap-growing-percent=20'];

const OPERATOR_HEAP_FLAG =
  /--(semi[-_]space[-_]growth[-_]factor|heap[-_]growing[-_]percent|max[-_]semi[-_]space[-_]size|min[-_]semi[-_]space[-_]size|optimize[-_]for[-_]size)\b/;

/** The flags to set: HEAP_FLAGS, or none when the command line has a heap flag of its own. */
export function heapFlags(execArgv: readonly string[]): string[] {
  return execArgv.some((arg) => OPERATOR_HEAP_FLAG.test(arg)) ? [] : HEAP_FLAGS;
}
