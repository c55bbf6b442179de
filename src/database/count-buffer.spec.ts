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
