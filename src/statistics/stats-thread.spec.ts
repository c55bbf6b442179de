import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The statistics writer's thread loads its module as the worker script does (from the TypeScript
 * sources here: compiled on require, imports used only as types dropped, as in the build): what it
 * loads from node_modules, in a process of its own.
 */
function packagesLoadedBy(module: string): string[] {
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
    require(${JSON.stringify(module)});
    const loaded = Object.keys(require.cache).filter((f) => !before.has(f));
    const names = loaded.map((f) => /node_modules\\/((@[^/]+\\/)?[^/]+)/.exec(f)?.[1]).filter(Boolean);
    process.stdout.write(JSON.stringify([...new Set(names)].sort()));
  `;
  return JSON.parse(
    execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' }),
  ) as string[];
}

describe('the statistics writer’s thread', () => {
  it('loads better-sqlite3 and the user-agent parser, but neither TypeORM nor Nest', () => {
    const loaded = packagesLoadedBy(join(__dirname, 'stats-thread.ts'));
    expect(loaded).toContain('better-sqlite3');
    expect(loaded).toContain('ua-parser-js');
    expect(loaded.filter((p) => /typeorm|@nestjs|reflect-metadata|rxjs/.test(p))).toEqual([]);
  });
});
