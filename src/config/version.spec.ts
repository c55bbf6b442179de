import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { APP_VERSION, readPackageVersion } from './version';

describe('APP_VERSION', () => {
  it("is package.json's version", () => {
    const pkg = JSON.parse(readFileSync(resolve('package.json'), 'utf8')) as { version: string };
    expect(APP_VERSION).toBe(pkg.version);
    expect(APP_VERSION).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('is found from the build folder too (dist/src/config), skipping other packages', () => {
    const root = mkdtempSync(join(tmpdir(), 'version-'));
    writeFileSync(
      join(root, 'package.json'),
      JSON.stringify({ name: 'url-shorter', version: '9.8.7' }),
    );
    const built = join(root, 'dist', 'src', 'config');
    mkdirSync(built, { recursive: true });
    // A package.json of something else on the way up is not ours.
    writeFileSync(
      join(root, 'dist', 'package.json'),
      JSON.stringify({ name: 'other', version: '1.0.0' }),
    );
    expect(readPackageVersion(built)).toBe('9.8.7');
  });

  it('fails clearly when there is none', () => {
    const lonely = mkdtempSync(join(tmpdir(), 'no-version-'));
    expect(() => readPackageVersion(lonely)).toThrow(/No package.json of url-shorter/);
  });
});
