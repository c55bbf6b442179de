import { describe, expect, it } from 'vitest';
import type { DataSource } from 'typeorm';
import type { AppConfig } from '../config/config';
import type { FailureReporter } from '../failure/failure-reporter';
import { HOUR_MS } from '../statistics/traits';
import { PAGE_VIEWS_MAX_KEYS, PageViews } from './page-views';

/** The buffer's pending counts, read as a flush would hand them to the writer. */
function pendingOf(views: PageViews): Map<string, number> {
  return (views as unknown as { buffer: { snapshot(): Map<string, number> } }).buffer.snapshot();
}

describe('PageViews', () => {
  const config = { stats: { enabled: true } } as AppConfig;
  const make = () =>
    new PageViews({} as DataSource, config, {
      background: () => undefined,
    } as unknown as FailureReporter);

  it('a full buffer takes no new page, but the views of a page already waiting still count', () => {
    const views = make();
    const now = 10 * HOUR_MS;
    for (let i = 0; i < PAGE_VIEWS_MAX_KEYS; i++) views.count(`p${i}`, false, now);
    views.count('p0', false, now);
    views.count('p0', false, now);
    views.count('new-page', false, now);
    // A bot's view of a waiting page is a key of its own: not taken either.
    views.count('p1', true, now);
    const pending = pendingOf(views);
    expect(pending.size).toBe(PAGE_VIEWS_MAX_KEYS);
    expect(pending.get('p0|10|v')).toBe(3);
    expect(pending.get('p1|10|v')).toBe(1);
    expect(pending.has('new-page|10|v')).toBe(false);
    expect(pending.has('p1|10|b')).toBe(false);
  });

  it('counts nothing with statistics off', () => {
    const off = new PageViews(
      {} as DataSource,
      { stats: { enabled: false } } as AppConfig,
      {} as FailureReporter,
    );
    off.count('p', false);
    expect(pendingOf(off).size).toBe(0);
  });
});
