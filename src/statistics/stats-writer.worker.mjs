// The statistics writer's thread (StatsWriterThread): runs src/statistics/stats-thread.ts, the
// StatsWriter on its own SQLite connection. Plain JavaScript so that Node loads it as it is: from
// dist/ (nest-cli.json copies it there) it requires the compiled stats-thread.js beside it; from
// src/ (Vitest runs the app from its TypeScript) there is none, and TypeScript files are compiled
// on require with TypeScript's transpiler (a dev dependency).
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { parentPort, workerData } from 'node:worker_threads';

const require = createRequire(import.meta.url);
const compiled = new URL('./stats-thread.js', import.meta.url);

if (!existsSync(compiled)) {
  // TypeScript's own transpiler (plain JavaScript): a native transform (@swc/core) loaded in one
  // worker after another hung a worker's start now and then.
  const ts = require('typescript');
  require.extensions['.ts'] = (module, filename) => {
    const { outputText } = ts.transpileModule(readFileSync(filename, 'utf8'), {
      fileName: filename,
      compilerOptions: {
        module: ts.ModuleKind.CommonJS,
        target: ts.ScriptTarget.ES2022,
        esModuleInterop: true,
        experimentalDecorators: true,
        emitDecoratorMetadata: true,
      },
    });
    module._compile(outputText, filename);
  };
}

// No lower priority for this thread: it holds SQLite's write lock while it writes, and the main
// connection's writes wait for it.
const { serveStatsThread } = require(
  existsSync(compiled) ? compiled.pathname : './stats-thread.ts',
);
await serveStatsThread(parentPort, workerData);
