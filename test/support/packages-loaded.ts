import { execFileSync } from 'node:child_process';

/**
 * The packages of node_modules that requiring `modules` loads, in a process of their own (from
 * the TypeScript sources: compiled on require, imports used only as types dropped, as in the
 * build). A package loaded as an ES module counts by its entry file.
 */
export function packagesLoadedBy(...modules: string[]): string[] {
  const script = `
    const { readFileSync } = require('node:fs');
    const ts = require('typescript');
    require.extensions['.ts'] = (m, filename) => {
      const { outputText } = ts.transpileModule(readFileSync(filename, 'utf8'), {
        fileName: filename,
        compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true },
      });
      m._compile(outputText, filename);
    };
    const before = new Set(Object.keys(require.cache));
    for (const m of ${JSON.stringify(modules)}) require(m);
    const loaded = Object.keys(require.cache).filter((f) => !before.has(f));
    const names = loaded.map((f) => /node_modules\\/((@[^/]+\\/)?[^/]+)/.exec(f)?.[1]).filter(Boolean);
    process.stdout.write(JSON.stringify([...new Set(names)].sort()));
  `;
  return JSON.parse(
    execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' }),
  ) as string[];
}
