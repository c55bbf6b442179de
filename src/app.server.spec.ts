import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { backlogWarning, kernelBacklogCap, LISTEN_BACKLOG, SMALL_BACKLOG } from './app.server';

describe('the listen backlog', () => {
  it('asks for more than any flood the tests make; the kernel caps it', () => {
    expect(LISTEN_BACKLOG).toBeGreaterThanOrEqual(4096);
  });

  it("reads the kernel's cap, and warns only when it is small", () => {
    const dir = mkdtempSync(join(tmpdir(), 'somaxconn-'));
    const file = join(dir, 'somaxconn');
    writeFileSync(file, '128\n');
    expect(kernelBacklogCap(file)).toBe(128);
    expect(kernelBacklogCap(join(dir, 'missing'))).toBeUndefined();
    writeFileSync(file, 'junk');
    expect(kernelBacklogCap(file)).toBeUndefined();
    expect(backlogWarning(128)).toMatch(/^net\.core\.somaxconn is 128: at most 128 connections/);
    expect(backlogWarning(SMALL_BACKLOG)).toBeNull();
    expect(backlogWarning(4096)).toBeNull();
  });
});
