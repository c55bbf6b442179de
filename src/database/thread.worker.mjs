// Every worker thread of WorkerClient (src/database/worker-thread.ts), and the thread's side of its
// protocol: loads the thread's module (workerData.module) and serves what its `openThread(init,
// emit)` opens: `ready` (or `failed` with the error it could not open with), then each request's
// answer under its `seq`, a failure as a ThreadError, notices to the service, events from it.
//
// Plain JavaScript so that Node loads it as it is, from dist/ (nest-cli.json copies it there) and
// from src/ (Vitest). A module ending in `.mjs` is imported as it is (it starts fast: the SQLite
// reads' thread). Otherwise the path has no ending: the built `.js` is required, or, from src/
// (Vitest runs the app from its TypeScript), the `.ts`, compiled on require with TypeScript's
// transpiler (a dev dependency).
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { parentPort, workerData } from 'node:worker_threads';

const require = createRequire(import.meta.url);

/** The module at `path`: an `.mjs` imported, else `path.js` (built), else `path.ts` compiled. */
async function load(path) {
  if (path.endsWith('.mjs')) return import(pathToFileURL(path).href);
  if (existsSync(`${path}.js`)) return require(`${path}.js`);
  // TypeScript's own transpiler (plain JavaScript): a native transform (@swc/core) loaded in one
  // worker after another hung a worker's start now and then.
  const ts = require('typescript');
  require.extensions['.ts'] = (m, filename) => {
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
  return require(`${path}.ts`);
}

const codeOf = (err) => {
  const code = err?.driverError?.code ?? err?.code;
  return typeof code === 'string' ? code : undefined;
};

/**
 * The thread's side of the error codec (fromThreadError is the other): an error as it is posted,
 * with what the failure classification reads. CommitOutcomeUnknownError (known by its name: this
 * file loads none of the app) is posted as its cause, marked `outcomeUnknown`.
 */
function toThreadError(err) {
  const unknownOutcome = err?.name === 'CommitOutcomeUnknownError';
  const cause = unknownOutcome ? err.cause : err;
  const e = cause instanceof Error ? cause : new Error(String(cause));
  return {
    name: e.name,
    message: e.message,
    stack: e.stack,
    code: codeOf(cause),
    outcomeUnknown: unknownOutcome || undefined,
  };
}

const post = (msg) => parentPort.postMessage(msg);
// A module that does not load crashes the thread; one whose service does not open says `failed`.
const { openThread } = await load(workerData.module);
let service;
try {
  service = await openThread(workerData.init, (event) => post({ type: 'event', event }));
} catch (err) {
  post({ type: 'failed', error: toThreadError(err) });
}

if (service) {
  const fail = (seq, err) => post({ type: 'error', seq, error: toThreadError(err) });
  parentPort.on('message', (msg) => {
    if (msg.seq === undefined) {
      service.notice?.(msg.notice);
      return;
    }
    const { seq } = msg;
    let answer;
    try {
      answer = service.answer(msg.request);
    } catch (err) {
      fail(seq, err);
      return;
    }
    // A synchronous answer is posted at once: answers come in the requests' order.
    if (answer instanceof Promise) {
      answer.then(
        (value) => post({ type: 'answer', seq, value }),
        (err) => fail(seq, err),
      );
    } else post({ type: 'answer', seq, value: answer });
  });
  post({ type: 'ready' });
}
