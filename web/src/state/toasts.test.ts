import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { dismissToast, showToast, toasts } from './toasts';

describe('toasts', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => {
    for (const t of [...toasts.list]) dismissToast(t.id);
    vi.useRealTimers();
  });

  it('auto-close after 5000 ms unless persistent', () => {
    showToast('success', 'weg');
    showToast('info', 'bleibt', { id: 'maintenance', persistent: true });
    vi.advanceTimersByTime(4999);
    expect(toasts.list.map((t) => t.text)).toEqual(['weg', 'bleibt']);
    vi.advanceTimersByTime(1);
    expect(toasts.list.map((t) => t.text)).toEqual(['bleibt']);
  });

  it('at most 5 at once, the oldest goes first; a non-closable toast stays', () => {
    showToast('error', 'shutdown', { id: 'shutdown', persistent: true, closable: false });
    for (let i = 1; i <= 6; i++) showToast('info', `n${i}`);
    expect(toasts.list).toHaveLength(5);
    expect(toasts.list.map((t) => t.text)).toEqual(['shutdown', 'n3', 'n4', 'n5', 'n6']);
  });

  it('does not duplicate a toast with the same id', () => {
    showToast('info', 'a', { id: 'x', persistent: true });
    showToast('info', 'a', { id: 'x', persistent: true });
    expect(toasts.list).toHaveLength(1);
  });
});
