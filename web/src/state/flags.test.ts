import { afterEach, describe, expect, it, vi } from 'vitest';
import { runtimeConfig } from '../runtime-config';
import { flags, startFlags } from './flags';

const unleash = vi.hoisted(() => ({ loaded: false }));
vi.mock('unleash-proxy-client', () => {
  unleash.loaded = true;
  return {};
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('startFlags with the embedded flags', () => {
  it("reads this server's frontend API as the Unleash client would, and again every refreshSeconds", async () => {
    expect(runtimeConfig.flags.embedded).toBe(true);
    vi.useFakeTimers();
    let enabled = true;
    const seen: { url: string; authorization: string | null }[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init: RequestInit) => {
        seen.push({ url, authorization: new Headers(init.headers).get('authorization') });
        const toggles = enabled
          ? [{ name: 'url.frontend.maintenance', enabled: true, variant: { name: 'disabled' } }]
          : [];
        return new Response(JSON.stringify({ toggles }), {
          headers: { 'content-type': 'application/json' },
        });
      }),
    );
    await startFlags();
    await vi.waitFor(() => expect(flags.ready).toBe(true));
    expect(flags.server).toEqual({ 'url.frontend.maintenance': true });
    expect(seen).toEqual([
      {
        url: new URL('/api/frontend', location.origin).href,
        authorization: 'url-shorter-embedded',
      },
    ]);

    enabled = false;
    await vi.advanceTimersByTimeAsync(runtimeConfig.flags.refreshSeconds * 1000);
    await vi.waitFor(() => expect(flags.server).toEqual({}));
    expect(seen).toHaveLength(2);
    // The Unleash client is not loaded for the embedded flags.
    expect(unleash.loaded).toBe(false);
  });
});
