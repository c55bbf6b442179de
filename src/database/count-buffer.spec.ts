import { describe, expect, it } from 'vitest';
import { CommitOutcomeUnknownError } from './apply-once';
import { CountBuffer } from './count-buffer';

/** A writer over an in-memory "database" that records batch ids like applied_batches. */
function fakeDatabase() {
  const applied = new Set<string>();
  const totals = new Map<string, number>();
  let fail: 'before-commit' | 'lost-commit-answer' | null = null;
  const write = async (id: string, counts: ReadonlyMap<string, number>) => {
    if (fail === 'before-commit') throw new Error('connection refused');
    if (!applied.has(id)) {
      applied.add(id);
      for (const [k, n] of counts) totals.set(k, (totals.get(k) ?? 0) + n);
    }
    if (fail === 'lost-commit-answer') throw new CommitOutcomeUnknownError(new Error('lost'));
  };
  return { write, totals, applied, failWith: (f: typeof fail) => (fail = f) };
}

describe('CountBuffer', () => {
  it('hands batches to the writer and keeps them when the write fails', async () => {
    const b = new CountBuffer();
    b.add('a');
    b.add('a');
    b.add('b');
    await expect(
      b.flush(async () => {
        throw new Error('db down');
      }),
    ).rejects.toThrow('db down');
    b.add('a');
    const seen: Array<[string, number]> = [];
    await b.flush(async (_id, batch) => {
      seen.push(...batch);
    });
    expect(new Map(seen)).toEqual(
      new Map([
        ['a', 3],
        ['b', 1],
      ]),
    );
    expect(b.size).toBe(0);
  });

  it('retries a batch whose commit answer was lost with the same id, so it counts once', async () => {
    const db = fakeDatabase();
    const b = new CountBuffer();
    for (let i = 0; i < 5; i++) b.add('x');
    db.failWith('lost-commit-answer'); // written, but the writer cannot know
    await expect(b.flush(db.write)).rejects.toBeInstanceOf(CommitOutcomeUnknownError);
    b.add('x');
    db.failWith('before-commit');
    await expect(b.flush(db.write)).rejects.toThrow('connection refused');
    expect(b.snapshot().get('x')).toBe(6);
    db.failWith(null);
    await b.flush(db.write);
    expect(db.totals.get('x')).toBe(6);
    expect(b.size).toBe(0);
  });

  it('never runs two flushes at once: a second call joins the running one', async () => {
    const b = new CountBuffer();
    let running = 0;
    let maxRunning = 0;
    const write = async () => {
      running++;
      maxRunning = Math.max(maxRunning, running);
      await new Promise((r) => setTimeout(r, 20));
      running--;
    };
    b.add('a');
    const first = b.flush(write);
    b.add('b');
    await Promise.all([first, b.flush(write), b.flush(write)]);
    expect(maxRunning).toBe(1);
    expect(b.size).toBe(1); // 'b' came after the running flush sealed its batch
    await b.drain(write);
    expect(b.size).toBe(0);
  });

  it('counts a batch being written as not written yet (size and snapshot) until its write is done', async () => {
    const b = new CountBuffer();
    let finish!: () => void;
    const write = () => new Promise<void>((r) => (finish = r));
    b.add('a', 3);
    const flushing = b.flush(write);
    await Promise.resolve();
    expect(b.size).toBe(1);
    expect(b.snapshot().get('a')).toBe(3);
    finish();
    await flushing;
    expect(b.size).toBe(0);
  });
});

describe('CountBuffer batches of at most maxKeys keys', () => {
  /** A writer that records each batch and fails as `failAt` says (by batch number, from 0). */
  function recordingDatabase(failAt: Map<number, 'before-commit' | 'lost-commit-answer'>) {
    const applied = new Set<string>();
    const totals = new Map<string, number>();
    const batches: Array<{ id: string; keys: number }> = [];
    const write = async (id: string, counts: ReadonlyMap<string, number>) => {
      const n = batches.push({ id, keys: counts.size }) - 1;
      const fail = failAt.get(n);
      if (fail === 'before-commit') throw new Error('connection refused');
      if (!applied.has(id)) {
        applied.add(id);
        for (const [k, c] of counts) totals.set(k, (totals.get(k) ?? 0) + c);
      }
      if (fail === 'lost-commit-answer') throw new CommitOutcomeUnknownError(new Error('lost'));
    };
    return { write, totals, batches };
  }
  const keys = (n: number) => Array.from({ length: n }, (_, i) => `k${i}`);

  it('writes what is pending in batches of at most maxKeys keys, one after the other', async () => {
    const db = recordingDatabase(new Map());
    const b = new CountBuffer(4);
    for (const k of keys(10)) b.add(k, 2);
    let running = 0;
    let overlap = false;
    await b.flush(async (id, counts) => {
      overlap ||= running > 0;
      running++;
      expect(b.size).toBe(10 - db.batches.reduce((n, x) => n + x.keys, 0)); // not yet written
      await new Promise((r) => setTimeout(r, 1));
      await db.write(id, counts);
      running--;
    });
    expect(db.batches.map((x) => x.keys)).toEqual([4, 4, 2]);
    expect(new Set(db.batches.map((x) => x.id)).size).toBe(3);
    expect(overlap).toBe(false);
    expect(db.totals).toEqual(new Map(keys(10).map((k) => [k, 2])));
    expect(b.size).toBe(0);
  });

  it('seals each batch just before its write: counts added meanwhile to its keys go with it, new keys wait', async () => {
    const db = recordingDatabase(new Map());
    const b = new CountBuffer(4);
    for (const k of keys(10)) b.add(k);
    let writes = 0;
    await b.flush(async (id, counts) => {
      // Follows go on while the flush writes: one more of a key not yet sealed, and a new key
      // on every write (a flush under load still ends with what was pending when it started).
      if (writes === 0) b.add('k9', 5);
      b.add(`new${writes++}`);
      await db.write(id, counts);
    });
    expect(db.batches.map((x) => x.keys)).toEqual([4, 4, 2]);
    expect(db.totals).toEqual(new Map(keys(10).map((k) => [k, k === 'k9' ? 6 : 1])));
    expect(b.snapshot()).toEqual(
      new Map([
        ['new0', 1],
        ['new1', 1],
        ['new2', 1],
      ]),
    );
  });

  it('a batch that failed before its commit takes the untried batches back with it', async () => {
    const db = recordingDatabase(new Map([[1, 'before-commit']]));
    const b = new CountBuffer(4);
    for (const k of keys(10)) b.add(k);
    await expect(b.flush(db.write)).rejects.toThrow('connection refused');
    expect(db.batches.map((x) => x.keys)).toEqual([4, 4]); // the third was not tried
    expect(b.size).toBe(6);
    expect(b.snapshot()).toEqual(
      new Map(
        keys(10)
          .slice(4)
          .map((k) => [k, 1]),
      ),
    );
    b.add('k0');
    await b.flush(db.write);
    expect(db.totals).toEqual(new Map(keys(10).map((k) => [k, k === 'k0' ? 2 : 1])));
    expect(b.size).toBe(0);
  });

  it('a batch whose commit answer was lost is retried under its id; the untried ones go back', async () => {
    const db = recordingDatabase(new Map([[1, 'lost-commit-answer']]));
    const b = new CountBuffer(4);
    for (const k of keys(10)) b.add(k);
    await expect(b.flush(db.write)).rejects.toBeInstanceOf(CommitOutcomeUnknownError);
    const lost = db.batches[1].id;
    expect(b.size).toBe(6); // 4 kept with their id (written, but the app cannot know), 2 pending
    await b.flush(db.write);
    expect(db.batches[2].id).toBe(lost); // retried first, under its id: written once
    expect(db.totals).toEqual(new Map(keys(10).map((k) => [k, 1])));
    expect(b.size).toBe(0);
  });
});

describe('CountBuffer aiming at a batch time (SQLite)', () => {
  /** A writer whose batch takes msPerKey per key (a spin: what a synchronous driver does). */
  function slowWriter(msPerKey: number) {
    const sizes: number[] = [];
    const totals = new Map<string, number>();
    const write = async (_id: string, counts: ReadonlyMap<string, number>) => {
      sizes.push(counts.size);
      const until = performance.now() + counts.size * msPerKey;
      while (performance.now() < until); // holds the thread, as better-sqlite3 does
      for (const [k, n] of counts) totals.set(k, (totals.get(k) ?? 0) + n);
    };
    return { write, sizes, totals };
  }

  it('starts small, then sizes batches from the time per key measured, never above maxKeys', async () => {
    const b = new CountBuffer(1000, 10);
    expect(b.keysPerBatch).toBe(200);
    const db = slowWriter(0.1); // 10 ms aim at 0.1 ms a key: about 100 keys per batch
    for (let i = 0; i < 1500; i++) b.add(`k${i}`);
    await b.flush(db.write);
    expect(db.sizes.slice(0, 7)).toEqual([200, 200, 200, 200, 200, 200, 200]);
    // Each batch moves the aim halfway: after eight it is near 100 (slower when preempted: fewer).
    expect(b.keysPerBatch).toBeLessThanOrEqual(110);
    expect(b.keysPerBatch).toBeGreaterThanOrEqual(50);
    const next = b.keysPerBatch;
    for (let i = 0; i < 500; i++) b.add(`m${i}`);
    await b.flush(db.write);
    expect(db.sizes[8]).toBe(next);
    expect(db.totals.size).toBe(2000); // every key written once
    expect([...db.totals.values()].every((n) => n === 1)).toBe(true);

    // A fast writer grows the batches back up to maxKeys, not beyond.
    const fast = slowWriter(0.001);
    for (let round = 0; round < 12; round++) {
      for (let i = 0; i < 3000; i++) b.add(`f${round}-${i}`);
      await b.flush(fast.write);
    }
    expect(b.keysPerBatch).toBe(1000);
    expect(Math.max(...fast.sizes)).toBeLessThanOrEqual(1000);
  });

  it('without a batch time the batches are maxKeys from the start and stay so', async () => {
    const b = new CountBuffer(300);
    const db = slowWriter(0.05);
    for (let i = 0; i < 1000; i++) b.add(`k${i}`);
    await b.flush(db.write);
    expect(db.sizes).toEqual([300, 300, 300, 100]);
    expect(b.keysPerBatch).toBe(300);
  });

  it('keeps the characters of its keys not yet written, across batches written, failed and unsure', async () => {
    const chars = (b: CountBuffer) => [...b.snapshot().keys()].reduce((n, k) => n + k.length, 0);
    const db = fakeDatabase();
    const b = new CountBuffer(2);
    for (const k of ['a', 'bb', 'ccc', 'dddd', 'a']) b.add(k);
    expect(b.keyChars).toBe(10);
    // The first batch fails before its commit: everything is pending again.
    db.failWith('before-commit');
    await expect(b.flush(db.write)).rejects.toThrow();
    expect(b.keyChars).toBe(10);
    b.add('bb'); // a key merged back and added again counts once
    expect(b.keyChars).toBe(chars(b));
    // A lost commit answer keeps its batch as unsure; its keys still count.
    db.failWith('lost-commit-answer');
    await expect(b.flush(db.write)).rejects.toThrow();
    b.add('eeeee');
    expect(b.keyChars).toBe(15);
    expect(b.keyChars).toBe(chars(b));
    db.failWith(null);
    await b.flush(db.write);
    expect(b.keyChars).toBe(0);
    expect(b.size).toBe(0);
  });
});
