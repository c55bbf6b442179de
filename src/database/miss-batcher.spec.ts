import { describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from './errors';
import { type BatchRead, MissBatcher, type MissBatcherOptions } from './miss-batcher';

/** A read that the test answers by hand, one statement at a time. */
interface Statement {
  domain: string;
  codes: readonly string[];
  answer(rows: Array<[string, string]>): void;
  fail(err: unknown): void;
}

function batcher(options: Partial<MissBatcherOptions> = {}) {
  const statements: Statement[] = [];
  let running = 0;
  let mostRunning = 0;
  const read: BatchRead<string> = (domain, codes) =>
    new Promise((resolve, reject) => {
      running++;
      mostRunning = Math.max(mostRunning, running);
      const done = () => running--;
      statements.push({
        domain,
        codes: [...codes],
        answer: (rows) => {
          done();
          resolve(rows);
        },
        fail: (err) => {
          done();
          reject(err);
        },
      });
    });
  const b = new MissBatcher(read, { maxCodes: 100, maxInFlight: 2, maxWaitMs: 10_000, ...options });
  return { b, statements, mostRunning: () => mostRunning };
}

/** One turn of the event loop: the batcher's setImmediate has run. */
const turn = () => new Promise<void>((r) => setImmediate(r));

/** Answers a statement with a row `row:<code>` for each of `existing` among its codes. */
function answerFrom(existing: readonly string[]) {
  return (s: Statement) =>
    s.answer(s.codes.filter((c) => existing.includes(c)).map((c) => [c, `row:${c}`]));
}

describe('MissBatcher: concurrent reads by code in few statements', () => {
  it('the codes asked for in one turn of the event loop go as one statement, each gets its row', async () => {
    const { b, statements } = batcher();
    const results = ['a', 'b', 'c', 'd'].map((c) => b.get('', c));
    expect(statements).toHaveLength(0); // gathered until setImmediate
    await turn();
    expect(statements.map((s) => s.codes)).toEqual([['a', 'b', 'c', 'd']]);
    answerFrom(['a', 'c'])(statements[0]);
    expect(await Promise.all(results)).toEqual(['row:a', null, 'row:c', null]);
  });

  it('a lone read goes out in the same turn (no timer: no wait when idle)', async () => {
    const { b, statements } = batcher();
    const result = b.get('', 'solo');
    await turn();
    expect(statements).toHaveLength(1);
    statements[0].answer([['solo', 'row:solo']]);
    expect(await result).toBe('row:solo');
  });

  it('codes asked for while the statements are under way go together in the next one', async () => {
    const { b, statements } = batcher({ maxInFlight: 1 });
    const first = b.get('', 'a');
    await turn();
    expect(statements).toHaveLength(1);
    const later = ['b', 'c', 'd'].map((c) => b.get('', c));
    await turn();
    expect(statements).toHaveLength(1); // the one slot is taken: they wait
    answerFrom(['a', 'b', 'c', 'd'])(statements[0]);
    expect(await first).toBe('row:a');
    await turn();
    expect(statements.map((s) => s.codes)).toEqual([['a'], ['b', 'c', 'd']]);
    answerFrom(['b', 'd'])(statements[1]);
    expect(await Promise.all(later)).toEqual(['row:b', null, 'row:d']);
  });

  it('a row matches only the code spelled exactly so (not a trailing-space or case variant)', async () => {
    const { b, statements } = batcher();
    const results = ['abc ', 'ABC', 'abc', 'x'].map((c) => b.get('', c));
    await turn();
    // A PAD SPACE or case-insensitive collation would return the row of 'abc' for all three.
    statements[0].answer([
      ['abc', 'row:abc'],
      ['abc', 'row:abc'],
      ['abc', 'row:abc'],
    ]);
    expect(await Promise.all(results)).toEqual([null, null, 'row:abc', null]);
  });

  it('the same code asked for twice is read once and answers both', async () => {
    const { b, statements } = batcher();
    const results = [b.get('', 'same'), b.get('', 'same'), b.get('other.example', 'same')];
    await turn();
    expect(statements.map((s) => [s.domain, s.codes])).toEqual([
      ['', ['same']],
      ['other.example', ['same']],
    ]);
    statements[0].answer([['same', 'row:same']]);
    statements[1].answer([]);
    expect(await Promise.all(results)).toEqual(['row:same', 'row:same', null]);
  });

  it('groups by domain: one statement per domain, each with its own codes', async () => {
    const { b, statements } = batcher({ maxInFlight: 4 });
    const results = [
      b.get('', 'a'),
      b.get('go.example', 'a'),
      b.get('', 'b'),
      b.get('go.example', 'c'),
    ];
    await turn();
    expect(statements.map((s) => [s.domain, s.codes])).toEqual([
      ['', ['a', 'b']],
      ['go.example', ['a', 'c']],
    ]);
    answerFrom(['a', 'b'])(statements[0]);
    answerFrom(['c'])(statements[1]);
    expect(await Promise.all(results)).toEqual(['row:a', null, 'row:b', 'row:c']);
  });

  it('keeps to maxCodes per statement and maxInFlight statements at a time', async () => {
    const { b, statements, mostRunning } = batcher({ maxCodes: 3, maxInFlight: 2 });
    const codes = Array.from({ length: 10 }, (_, i) => `c${i}`);
    const results = codes.map((c) => b.get('', c));
    await turn();
    expect(statements.map((s) => s.codes)).toEqual([
      ['c0', 'c1', 'c2'],
      ['c3', 'c4', 'c5'],
    ]);
    // Answer statements one by one as they come: the rest follow, never more than 2 at a time.
    for (let i = 0; i < statements.length; i++) {
      answerFrom(codes)(statements[i]);
      await turn();
    }
    expect(statements.map((s) => s.codes)).toEqual([
      ['c0', 'c1', 'c2'],
      ['c3', 'c4', 'c5'],
      ['c6', 'c7', 'c8'],
      ['c9'],
    ]);
    expect(mostRunning()).toBe(2);
    expect(await Promise.all(results)).toEqual(codes.map((c) => `row:${c}`));
  });

  it('a failed statement fails the reads of that statement only', async () => {
    const { b, statements } = batcher({ maxCodes: 2, maxInFlight: 2 });
    const results = ['a', 'b', 'c', 'd'].map((c) =>
      b.get('', c).then(
        (row) => ({ row }),
        (err: unknown) => ({ err }),
      ),
    );
    await turn();
    expect(statements.map((s) => s.codes)).toEqual([
      ['a', 'b'],
      ['c', 'd'],
    ]);
    const down = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    statements[0].fail(down);
    answerFrom(['c', 'd'])(statements[1]);
    expect(await Promise.all(results)).toEqual([
      { err: down },
      { err: down },
      { row: 'row:c' },
      { row: 'row:d' },
    ]);
    // The batcher goes on: the next read gets its own statement.
    const next = b.get('', 'a');
    await turn();
    answerFrom(['a'])(statements[2]);
    expect(await next).toBe('row:a');
  });

  it('a read that waits maxWaitMs for a statement (all under way, silent) fails as unavailable', async () => {
    const { b, statements } = batcher({ maxInFlight: 1, maxWaitMs: 50 });
    const stuck = b.get('', 'a');
    await turn();
    const started = Date.now();
    const waiting = b.get('', 'b').catch((err: unknown) => err);
    const err = await waiting;
    expect(Date.now() - started).toBeGreaterThanOrEqual(45);
    expect(isDatabaseUnavailable(err)).toBe(true); // answered 503 like a pool that gives nothing
    expect(statements).toHaveLength(1); // 'b' never went out
    statements[0].answer([['a', 'row:a']]);
    expect(await stuck).toBe('row:a');
    await turn();
    expect(statements).toHaveLength(1); // nothing left to read
  });
});
