import { afterEach, describe, expect, it, vi } from 'vitest';
import pkg from '../../package.json';

afterEach(() => {
  document.getElementById('runtime-config')?.remove();
  vi.resetModules();
});

describe('runtime config', () => {
  it("takes the version from the server's island", async () => {
    const island = document.createElement('script');
    island.id = 'runtime-config';
    island.type = 'application/json';
    island.textContent = JSON.stringify({ version: '9.8.7' });
    document.head.append(island);
    const { runtimeConfig } = await import('./runtime-config');
    expect(runtimeConfig.version).toBe('9.8.7');
  });

  it('without an island (the dev server), the version is the build’s: package.json', async () => {
    const { runtimeConfig } = await import('./runtime-config');
    expect(runtimeConfig.version).toBe(pkg.version);
    expect(runtimeConfig.version).toMatch(/^\d+\.\d+\.\d+/);
  });
});
