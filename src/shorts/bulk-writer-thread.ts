import { join } from 'node:path';
import { CommitOutcomeUnknownError } from '../database/apply-once';
import { WorkerClient } from '../database/worker-thread';
import type { BulkThreadInit } from './bulk-thread';
import type { BulkTxInput, BulkTxOutcome } from './short-bulk-tx';

/** A thread that takes longer to start or to answer is taken for hung (busy waits included). */
const STALL_MS = 60_000;
/** The thread is stopped after this long without an edit (its memory freed). */
const IDLE_MS = 60_000;

/**
 * The transaction of a bulk edit on a thread of its own, for a SQLite file (bulk-thread.ts;
 * WorkerClient): `write` resolves with the transaction's outcome once it committed or rolled
 * back. A thread lost while an edit is under way rejects it with CommitOutcomeUnknownError (it
 * may have committed). The first edit starts the thread; it stops after IDLE_MS without one.
 */
export class BulkWriterThread extends WorkerClient<
  BulkTxInput,
  BulkTxOutcome,
  never,
  never,
  BulkThreadInit
> {
  constructor(init: BulkThreadInit, onLost?: (reason: string) => void) {
    super({
      label: 'bulk edits writer',
      module: join(__dirname, 'bulk-thread'),
      init,
      stallMs: STALL_MS,
      idleMs: IDLE_MS,
      lostError: (cause) => new CommitOutcomeUnknownError(cause),
      onLost: (reason, how) => {
        if (how !== 'failed') onLost?.(reason);
      },
    });
  }

  write(input: BulkTxInput): Promise<BulkTxOutcome> {
    return this.request(input);
  }
}
