// Every worker thread of WorkerClient (src/database/worker-thread.ts): loads the thread's module
// (workerData.module, without its ending) and serves what its `openThread(init, emit)` opens
// (serveThread: the ready handshake, the answers under their sequence numbers, errors as
// ThreadError). Plain JavaScript so that Node loads it as it is: from dist/ (nest-cli.json copies
// it there) it requires the compiled modules; from src/ (Vitest runs the app from its TypeScript)
// there are none, and TypeScript files are compiled on require with TypeScript's transpiler (a dev
// dependency).
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { parentPort, workerData } from 'node:worker_threads';

const require = createRequire(import.meta.url);

/** Requires `name.js` (built), else `name.ts`, compiled on require. */
function load(name) {
  if (existsSync(`${name}.js`)) return require(`${name}.js`);
  // TypeScript's own transpiler (plain JavaScript): a native transform (@swc/core) loaded in one
  // worker after another hung a worker's start now and then.
  const ts = require('typescript');
  require.extensions['.ts'] ??= (m, filename) => {
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
    m._compile(outputText, filename);
  };
  return require(`${name}.ts`);
}

const { serveThread } = load(fileURLToPath(new URL('./worker-thread', import.meta.url)));
const { openThread } = load(workerData.module);
await serveThread(parentPort, (emit) => openThread(workerData.init, emit));
