import { globSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { FOLLOW_PAGE, matchRootFollow, ROOT_FOLLOW_PAGE } from '../src/shared/follow-path';
import { precompressDir } from '../src/web/precompress';
import { defineConfig, type Plugin } from 'vitest/config';

const here = fileURLToPath(new URL('.', import.meta.url));
/** The pure rules the server and the client share (src/shared/README.md), as `@shared/…`. */
const shared = fileURLToPath(new URL('../src/shared', import.meta.url));
const backend = process.env.VITE_BACKEND ?? 'http://localhost:8080';
/** The app's version (package.json, as the server reads it): the client's own when no island tells it. */
const { version } = JSON.parse(
  readFileSync(fileURLToPath(new URL('../package.json', import.meta.url)), 'utf8'),
) as { version: string };

const outDir = fileURLToPath(new URL('../dist/web', import.meta.url));

/**
 * Writes a `.br` and a `.gz` beside each text file of the build, once the build is written (the
 * server serves these as they are and never compresses in a request; index.html is left out: the
 * server renders it with the runtime config and compresses that once at start).
 */
function precompress(): Plugin {
  return {
    name: 'url-shorter-precompress',
    apply: 'build',
    closeBundle() {
      const files = precompressDir(outDir);
      const sum = (k: 'size' | 'br' | 'gz') => files.reduce((n, f) => n + (f[k] ?? 0), 0);
      this.info?.(
        `precompressed ${files.length} files: ${sum('size')} bytes, br ${sum('br')}, gzip ${sum('gz')}`,
      );
    },
  };
}

/**
 * The field table (src/shared/short-fields.ts) is part of every first visit, but its `description`
 * texts (of the fields, of `shown` and `admin`) are the server's: the OpenAPI document and the
 * admin area's answers. The client never reads them, so its build carries them empty (about 0.5 KB
 * gzip of the entry: the first visit of /login stays within its budget as fields are added).
 */
function withoutFieldDescriptions(): Plugin {
  const table = fileURLToPath(new URL('../src/shared/short-fields.ts', import.meta.url));
  const text = /\bdescription:\s*(?:"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|`(?:[^`\\$]|\\.)*`)/g;
  return {
    name: 'url-shorter-field-descriptions',
    apply: 'build',
    enforce: 'post',
    transform(code, id) {
      if (id.split('?')[0] !== table) return null;
      return { code: code.replace(text, 'description: ""'), map: null };
    },
  };
}

/**
 * Test files that replace modules (vi.mock) or import them afresh (vi.resetModules), found by
 * reading them: each runs in a fresh module cache of its own, as a module that another file of the
 * worker imported first would not be replaced.
 */
const MODULE_REPLACING_TESTS = globSync('src/**/*.test.{ts,tsx}', { cwd: here }).filter((f) =>
  /\bvi\.(mock|doMock|resetModules)\(/.test(readFileSync(join(here, f), 'utf8')),
);

// The client builds into the server's static folder (dist/web); `npm run dev` proxies the API.
export default defineConfig({
  root: here,
  plugins: [react(), precompress(), withoutFieldDescriptions()],
  resolve: { alias: { '@shared': shared } },
  define: { __APP_VERSION__: JSON.stringify(version) },
  build: {
    outDir,
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
    chunkSizeWarningLimit: 600,
  },
  server: {
    port: 5173,
    proxy: {
      '/api': { target: backend, changeOrigin: true },
      '/management': { target: backend, changeOrigin: true },
      // Follows of shorts (/s/{code}, with or without a query) are answered by the server.
      [FOLLOW_PAGE.source]: { target: backend, changeOrigin: true },
      // So is /{code}; a reserved word (a page of the client: /login, /shorts, …) and Vite's own
      // paths (/__vite_ping) stay here.
      [ROOT_FOLLOW_PAGE.source]: {
        target: backend,
        changeOrigin: true,
        bypass: (req) =>
          !req.url?.startsWith('/__') && matchRootFollow(req.method, req.url) ? undefined : req.url,
      },
    },
  },
  test: {
    root: here,
    environment: 'jsdom',
    setupFiles: ['src/test-setup.ts'],
    // Node 25 and later define a global localStorage of their own (Web Storage, without a file: unusable),
    // which hides jsdom's from the tests; off, as it is on Node 24.
    execArgv: ['--no-experimental-webstorage'],
    projects: [
      {
        extends: true,
        test: {
          name: 'web',
          include: ['src/**/*.test.{ts,tsx}'],
          exclude: MODULE_REPLACING_TESTS,
          // The files of a worker share its module cache and its jsdom: importing React, the
          // client and jsdom once per worker rather than once per file took the leg from ~130 to
          // ~35 s. Each test renders into a document that Testing Library cleans up after it.
          isolate: false,
        },
      },
      {
        extends: true,
        test: { name: 'web-isolated', include: MODULE_REPLACING_TESTS },
      },
    ],
  },
});
