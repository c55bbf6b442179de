import swc from 'unplugin-swc';
import { defineConfig } from 'vitest/config';

// SWC emits decorator metadata, which Nest's dependency injection needs.
const plugins = [swc.vite({ module: { type: 'es6' } })];

/**
 * e2e files whose assertions bound wall-clock time (a follow's wait under load, answers within the
 * timeouts of an outage): they run one at a time, after the others, so no other test file shares
 * the two cores with them.
 */
const TIMED_E2E = [
  'test/e2e/event-loop-probe.e2e-spec.ts',
  'test/e2e/outage-load.e2e-spec.ts',
  'test/e2e/database-outage.e2e-spec.ts',
  'test/e2e/redis-outage.e2e-spec.ts',
  'test/e2e/load-balancer.e2e-spec.ts',
  'test/e2e/limits.e2e-spec.ts',
  'test/e2e/qr-reports.e2e-spec.ts',
  'test/e2e/statistics-backlog.e2e-spec.ts',
  'test/e2e/follow-flood.e2e-spec.ts',
  'test/e2e/web-assets-flood.e2e-spec.ts',
  'test/e2e/domains-flood.e2e-spec.ts',
  'test/e2e/bulk.e2e-spec.ts',
  'test/e2e/apikeys-scoped.e2e-spec.ts',
];
const e2e = {
  environment: 'node' as const,
  testTimeout: 60_000,
  hookTimeout: 60_000,
  setupFiles: ['test/support/setup.ts'],
};

export default defineConfig({
  plugins,
  test: {
    projects: [
      {
        plugins,
        test: {
          name: 'unit',
          // scripts/: the repository's own checks (plain Node), e.g. the import cycle check.
          include: ['src/**/*.spec.ts', 'scripts/**/*.spec.mjs'],
          environment: 'node',
          // The files of a worker share its module cache (as the e2e files do).
          isolate: false,
        },
      },
      {
        plugins,
        test: {
          ...e2e,
          name: 'e2e',
          include: ['test/e2e/**/*.e2e-spec.ts'],
          exclude: TIMED_E2E,
          // The files of a worker share its module cache: each file boots its own app on its own
          // database, and importing Nest and the app once per worker rather than once per file
          // saved ~2 s a file (import 148 -> 29 s on one leg). The timed files keep a fresh
          // process each, so no heap that earlier files grew pauses their follows.
          isolate: false,
          // Each file boots its own app on its own database; two workers fit two cores.
          maxWorkers: 2,
          sequence: { groupOrder: 0 },
        },
      },
      {
        plugins,
        test: {
          ...e2e,
          name: 'e2e-timed',
          include: TIMED_E2E,
          fileParallelism: false,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
