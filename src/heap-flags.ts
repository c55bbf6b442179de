/**
 * V8 heap settings for a small resident set (docs/performance.md, "Memory"). Without them the
 * resident set after a load is 200-260 MiB for a live heap of about 65 MB: V8 grows the young
 * generation to 2 × 16 MiB and lets the old generation grow to several times the live heap before
 * its next full collection.
 *
 * - `--semi-space-growth-factor=1`: the young generation keeps its initial size (2 × 1 MiB).
 * - `--heap-growing-percent=20`: after a full collection the old generation may grow by 20 % of
 *   what survived before the next one (V8 picks up to 300 % by itself).
 *
 * V8 reads both at every collection, so they work when set from inside the process, before the
 * app's modules load (the start command is plain `node dist/src/main.js`; main.ts imports
 * heap-setup.ts first). `--max-semi-space-size` and `--max-old-space-size` would not: V8 reads them once,
 * when the heap is set up. A heap flag given on the command line or in NODE_OPTIONS means the
 * operator tunes the heap: then nothing is set.
 */
export const HEAP_FLAGS = ['--semi-space-growth-factor=1', '--heap-growing-percent=20'];

const OPERATOR_HEAP_FLAG =
  /--(semi[-_]space[-_]growth[-_]factor|heap[-_]growing[-_]percent|max[-_]semi[-_]space[-_]size|min[-_]semi[-_]space[-_]size|optimize[-_]for[-_]size)\b/;

/** The flags to set: HEAP_FLAGS, or none when the operator passed a heap flag of their own. */
export function heapFlags(execArgv: readonly string[], nodeOptions: string | undefined): string[] {
  const given = [...execArgv, nodeOptions ?? ''].some((arg) => OPERATOR_HEAP_FLAG.test(arg));
  return given ? [] : HEAP_FLAGS;
}
