// Imported first by main.ts: the heap settings (heap-flags.ts) apply before the app's modules load.
import { setFlagsFromString } from 'node:v8';
import { heapFlags } from './heap-flags';

for (const flag of heapFlags(process.execArgv)) setFlagsFromString(flag);
