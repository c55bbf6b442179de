import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { FOLLOW_PAGE } from '../src/follow/follow-path';
import { defineConfig } from 'vitest/config';

const here = fileURLToPath(new URL('.', import.meta.url));
/** The pure rules the server and the client share (src/shared/README.md), as `@shared/…`. */
const shared = fileURLToPath(new URL('../src/shared', import.meta.url));
const backend = process.env.VITE_BACKEND ?? 'http://localhost:8080';
/** The app's version (package.json, as the server reads it): the client's own when no island tells it. */
const { version } = JSON.parse(
  readFileSync(fileURLToPath(new URL('../package.json', import.meta.url)), 'utf8'),
) as { version: string };

// The client builds into the server's static folder (dist/web); `npm run dev` proxies the API.
export default defineConfig({
  root: here,
  plugins: [react()],
  resolve: { alias: { '@shared': shared } },
  define: { __APP_VERSION__: JSON.stringify(version) },
  build: {
    outDir: fileURLToPath(new URL('../dist/web', import.meta.url)),
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
    },
  },
  test: {
    name: 'web',
    root: here,
    include: ['src/**/*.test.{ts,tsx}'],
    environment: 'jsdom',
    setupFiles: ['src/test-setup.ts'],
  },
});
