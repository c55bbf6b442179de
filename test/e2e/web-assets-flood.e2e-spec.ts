import { request, Agent } from 'node:http';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { precompressDir } from '../../src/web/precompress';
import { createTestApp, type TestApp } from '../support/app';
import { insertShort } from '../support/shorts';

/** The longest a follow may wait while eight chunks of the client are served at once. */
const MAX_FOLLOW_MS = 100;
/** What a chunk request may take, at the median, after the junk paths (2-4 ms when served as built). */
const MAX_CHUNK_MEDIAN_MS = 10;
const JUNK_PATHS = 5_000;
const CHUNKS = 4;

/** A chunk that compresses as a real one does (names and literals that repeat, but not too much). */
function chunk(seed: number, bytes: number): string {
  let x = seed * 7919 + 1;
  const next = () => (x = (x * 1103515245 + 12345) % 2 ** 31);
  const words = Array.from({ length: 2000 }, () => next().toString(36));
  const lines: string[] = [];
  let size = 0;
  while (size < bytes) {
    const line = `function ${words[next() % words.length]}(a,b){return a.${words[next() % words.length]}(b,"${words[next() % words.length]}")+${next() % 1000};}\n`;
    lines.push(line);
    size += line.length;
  }
  return lines.join('');
}

const agent = new Agent({ keepAlive: true, maxSockets: 32 });

function get(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; encoding?: string; bytes: number; ms: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = request(url, { headers, agent }, (res) => {
      let bytes = 0;
      res.on('data', (c: Buffer) => (bytes += c.length));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          encoding: res.headers['content-encoding'],
          bytes,
          ms: performance.now() - started,
        }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/**
 * Issue 37, item 10: 5,000 requests for junk paths filled the asset cache, after which every chunk
 * was read and compressed again in each request (~50 ms each; eight at once held a follow 412
 * ms). Served as built, junk paths never enter a cache and no request compresses.
 */
describe('the web assets after a flood of junk paths', () => {
  let t: TestApp;
  let dir = '';
  let code = '';
  const figures: string[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'web-flood-'));
    mkdirSync(join(dir, 'assets'));
    writeFileSync(
      join(dir, 'index.html'),
      '<!doctype html><html lang="de"><head><!--runtime-config--></head><body></body></html>',
    );
    for (let i = 0; i < CHUNKS; i++)
      writeFileSync(join(dir, 'assets', `chunk${i}-AbCd123${i}.js`), chunk(i, 450_000));
    precompressDir(dir);
    t = await createTestApp({ WEB_DIR: dir });
    code = (await insertShort(t, { url: 'https://example.com/flood' })).code;
  }, 120_000);
  afterAll(async () => {
    console.log(`[web-assets-flood]\n  ${figures.join('\n  ')}`);
    agent.destroy();
    await t?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const chunkUrl = (i: number) => `${t.url}/assets/chunk${i % CHUNKS}-AbCd123${i % CHUNKS}.js`;
  const BR = { 'accept-encoding': 'gzip, deflate, br' };

  it('serves chunks fast and holds no follow after 5,000 junk paths', async () => {
    let next = 0;
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        while (next < JUNK_PATHS) {
          const res = await get(`${t.url}/j/${next++}`, BR);
          expect(res.status).toBe(200); // a client route: index.html
        }
      }),
    );

    const sequential: number[] = [];
    for (let i = 0; i < 4 * CHUNKS; i++) {
      const res = await get(chunkUrl(i), BR);
      expect(res.status).toBe(200);
      expect(res.encoding).toBe('br');
      sequential.push(res.ms);
    }
    figures.push(
      `chunk requests after ${JUNK_PATHS} junk paths: median ${median(sequential).toFixed(1)} ms, max ${Math.max(...sequential).toFixed(1)} ms`,
    );
    expect(median(sequential), 'median chunk request (ms)').toBeLessThanOrEqual(
      MAX_CHUNK_MEDIAN_MS,
    );

    const follows: number[] = [];
    for (let round = 0; round < 5; round++) {
      const chunks = Array.from({ length: 8 }, (_, i) => get(chunkUrl(i), BR));
      const follow = await get(`${t.url}/s/${code}`);
      expect(follow.status).toBe(302);
      for (const res of await Promise.all(chunks)) expect(res.status).toBe(200);
      follows.push(follow.ms);
    }
    figures.push(
      `a follow while 8 chunks are served: median ${median(follows).toFixed(1)} ms, max ${Math.max(...follows).toFixed(1)} ms`,
    );
    expect(Math.max(...follows), 'longest follow (ms)').toBeLessThanOrEqual(MAX_FOLLOW_MS);
  });
});
