import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { threadId } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import { CommitOutcomeUnknownError } from './apply-once';
import {
  fromThreadError,
  type ThreadLoss,
  WorkerClient,
  type WorkerClientOptions,
} from './worker-thread';

const dir = mkdtempSync(join(tmpdir(), 'worker-thread-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A thread's module (plain JavaScript: imported as it is) whose requests say what to do. */
const module = join(dir, 'test-thread.mjs');
writeFileSync(
  module,
  `
import { readFileSync } from 'node:fs';
export function openThread(init, emit) {
  if (init.fail) throw Object.assign(new Error('cannot open'), { code: 'EOPEN' });
  const told = [];
  return {
    answer(q) {
      if (q.kind === 'echo') return q.value;
      if (q.kind === 'later') return new Promise((done) => setTimeout(() => done(q.value), q.ms));
      if (q.kind === 'throw') throw Object.assign(new TypeError('bad'), { code: 'EBAD' });
      if (q.kind === 'driver') return Promise.reject({ message: 'x', driverError: { code: 'SQLITE_BUSY' } });
      if (q.kind === 'unknown') {
        // A CommitOutcomeUnknownError, as apply-once.ts makes it.
        const cause = Object.assign(new Error('gone'), { code: 'ECONNRESET' });
        const err = Object.assign(new Error('The outcome of a commit is unknown'), { cause });
        err.name = 'CommitOutcomeUnknownError';
        return Promise.reject(err);
      }
      if (q.kind === 'emit') { emit(q.value); return 'emitted'; }
      if (q.kind === 'told') return told;
      if (q.kind === 'name') return readFileSync('/proc/thread-self/comm', 'utf8').trim();
      if (q.kind === 'exit') process.exit(3);
      return new Promise(() => {}); // 'hang'
    },
    notice(n) { told.push(n); },
  };
}
`,
);

type Ask = { kind: string; value?: unknown; ms?: number };

class TestClient extends WorkerClient<Ask, unknown, string, unknown, object> {
  readonly events: unknown[] = [];
  ask = (q: Ask) => this.request(q);
  tell = (n: string) => this.notice(n);
  protected override onEvent(event: unknown): void {
    this.events.push(event);
  }
}

function client(over: Partial<WorkerClientOptions<object>> = {}, init: object = {}) {
  const lost: Array<[string, ThreadLoss]> = [];
  const c = new TestClient({
    label: 'test client',
    module,
    init,
    stallMs: 10_000,
    onLost: (reason, how) => lost.push([reason, how]),
    ...over,
  });
  return { c, lost };
}

describe('fromThreadError', () => {
  it('rebuilds name, message, stack and code', () => {
    const back = fromThreadError({ name: 'RangeError', message: 'out', stack: 'at x', code: 'E' });
    expect(back).toBeInstanceOf(Error);
    expect(back).toMatchObject({ name: 'RangeError', message: 'out', stack: 'at x', code: 'E' });
  });

  it('keeps a commit of unknown outcome one, with its cause', () => {
    const back = fromThreadError({
      name: 'Error',
      message: 'reset',
      code: 'ECONNRESET',
      outcomeUnknown: true,
    });
    expect(back).toBeInstanceOf(CommitOutcomeUnknownError);
    expect((back as CommitOutcomeUnknownError).cause).toMatchObject({
      message: 'reset',
      code: 'ECONNRESET',
    });
  });
});

describe('WorkerClient', () => {
  it('answers each request under its own number, on a thread of its own, with notices and events', async () => {
    const { c, lost } = client();
    try {
      expect(await c.ask({ kind: 'echo', value: 1 })).toBe(1);
      expect(c.threadId).toBeGreaterThan(0);
      expect(c.threadId).not.toBe(threadId);
      // The thread is named by the label (the system's name: its first 15 characters).
      expect(await c.ask({ kind: 'name' })).toBe('test client');
      const answers = await Promise.all([
        c.ask({ kind: 'later', value: 'slow', ms: 50 }),
        c.ask({ kind: 'echo', value: 'fast' }),
        c.ask({ kind: 'later', value: 'soon', ms: 10 }),
      ]);
      expect(answers).toEqual(['slow', 'fast', 'soon']);
      c.tell('a');
      c.tell('b');
      expect(await c.ask({ kind: 'told' })).toEqual(['a', 'b']);
      expect(await c.ask({ kind: 'emit', value: { asked: 2 } })).toBe('emitted');
      expect(c.events).toEqual([{ asked: 2 }]);
      expect(c.started).toBe(1);
      expect(lost).toEqual([]);
    } finally {
      await c.close();
    }
  });

  it('rejects a failed request with the thread’s error (name, message, code, a driver’s code, an unknown outcome), and answers on', async () => {
    const { c } = client();
    try {
      await expect(c.ask({ kind: 'throw' })).rejects.toMatchObject({
        name: 'TypeError',
        message: 'bad',
        code: 'EBAD',
      });
      await expect(c.ask({ kind: 'driver' })).rejects.toMatchObject({ code: 'SQLITE_BUSY' });
      const unknown = await c.ask({ kind: 'unknown' }).catch((err: unknown) => err);
      expect(unknown).toBeInstanceOf(CommitOutcomeUnknownError);
      expect((unknown as CommitOutcomeUnknownError).cause).toMatchObject({ code: 'ECONNRESET' });
      expect(await c.ask({ kind: 'echo', value: 'still' })).toBe('still');
      expect(c.started).toBe(1);
    } finally {
      await c.close();
    }
  });

  it('a thread that exits loses the requests under way (lostError); the next request starts another', async () => {
    const { c, lost } = client({ lostError: (cause) => new CommitOutcomeUnknownError(cause) });
    try {
      expect(await c.ask({ kind: 'echo', value: 1 })).toBe(1);
      const under = c.ask({ kind: 'later', value: 'never', ms: 5_000 }).catch((e: unknown) => e);
      await expect(c.ask({ kind: 'exit' })).rejects.toBeInstanceOf(CommitOutcomeUnknownError);
      const err = (await under) as CommitOutcomeUnknownError;
      expect(err).toBeInstanceOf(CommitOutcomeUnknownError);
      expect(String(err.cause)).toMatch(/The test client's thread exited \(3\)/);
      expect(lost).toEqual([['exited (3)', 'exited']]);
      // No back-off without retryMs: a new thread at once.
      expect(await c.ask({ kind: 'echo', value: 2 })).toBe(2);
      expect(c.started).toBe(2);
    } finally {
      await c.close();
    }
  });

  it('a module that cannot open: the request fails with its error, then at once for retryMs', async () => {
    const { c, lost } = client({ retryMs: 60_000 }, { fail: true });
    try {
      await expect(c.ask({ kind: 'echo' })).rejects.toMatchObject({
        message: 'cannot open',
        code: 'EOPEN',
      });
      expect(lost).toEqual([['failed to start: cannot open', 'failed']]);
      await expect(c.ask({ kind: 'echo' })).rejects.toThrow("The test client's thread was lost");
      expect(c.started).toBe(1);
      expect(lost).toHaveLength(1);
    } finally {
      await c.close();
    }
  });

  it('a script Node refuses at once: refused, nothing started', async () => {
    const { c, lost } = client({ script: 'not-a-path.mjs' });
    try {
      await expect(c.ask({ kind: 'echo' })).rejects.toMatchObject({ code: 'ERR_WORKER_PATH' });
      expect(lost).toHaveLength(1);
      expect(lost[0][0]).toMatch(/^failed to start: /);
      expect(lost[0][1]).toBe('refused');
      expect(c.started).toBe(0);
    } finally {
      await c.close();
    }
  });

  it('a thread that answers nothing within stallMs is hung: stopped, its requests fail', async () => {
    const { c, lost } = client({ stallMs: 2_000 });
    try {
      expect(await c.ask({ kind: 'echo', value: 1 })).toBe(1);
      const first = c.threadId;
      await expect(c.ask({ kind: 'hang' })).rejects.toThrow(
        "The test client's thread answered nothing for 2000 ms",
      );
      expect(lost).toEqual([['answered nothing for 2000 ms', 'hung']]);
      expect(c.threadId).toBeUndefined();
      expect(await c.ask({ kind: 'echo', value: 2 })).toBe(2);
      expect(c.threadId).not.toBe(first);
    } finally {
      await c.close();
    }
  }, 20_000);

  it('an idle thread is stopped without a word; the next request starts one', async () => {
    const { c, lost } = client({ idleMs: 50 });
    try {
      expect(await c.ask({ kind: 'echo', value: 1 })).toBe(1);
      await new Promise((done) => setTimeout(done, 300));
      expect(c.threadId).toBeUndefined();
      expect(await c.ask({ kind: 'echo', value: 2 })).toBe(2);
      expect(c.started).toBe(2);
      expect(lost).toEqual([]);
    } finally {
      await c.close();
    }
  });

  it('close fails the requests under way, the start under way, and every request after', async () => {
    const { c, lost } = client();
    const starting = c.ask({ kind: 'echo' }).catch((err: Error) => err.message);
    await c.close();
    expect(await starting).toBe('The test client is closed');
    const again = client();
    expect(await again.c.ask({ kind: 'echo', value: 1 })).toBe(1);
    const under = again.c.ask({ kind: 'hang' }).catch((err: Error) => err.message);
    await again.c.close();
    expect(await under).toBe('The test client is closed');
    await expect(again.c.ask({ kind: 'echo' })).rejects.toThrow('The test client is closed');
    expect([...lost, ...again.lost]).toEqual([]);
  });
});
