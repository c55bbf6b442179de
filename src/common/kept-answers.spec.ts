import { describe, expect, it } from 'vitest';
import { keptAnswer } from './kept-answers';

describe('keptAnswer', () => {
  it('asks once per kept key, keeps at most max keys, and answers right after dropping them', () => {
    const kept = new Map<string, string | null>();
    const asked: string[] = [];
    const answer = (k: string) => {
      asked.push(k);
      return k === 'none' ? null : k.toUpperCase();
    };
    expect(keptAnswer(kept, 3, 'a', answer)).toBe('A');
    expect(keptAnswer(kept, 3, 'a', answer)).toBe('A');
    expect(keptAnswer(kept, 3, 'none', answer)).toBeNull();
    expect(keptAnswer(kept, 3, 'none', answer)).toBeNull();
    expect(asked).toEqual(['a', 'none']);
    keptAnswer(kept, 3, 'b', answer);
    expect(kept.size).toBe(3);
    expect(keptAnswer(kept, 3, 'c', answer)).toBe('C'); // full: dropped, then kept anew
    expect(kept.size).toBe(1);
    expect(keptAnswer(kept, 3, 'a', answer)).toBe('A');
    expect(asked).toEqual(['a', 'none', 'b', 'c', 'a']);
  });
});
