import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { check, findCycles, parseImports } from './check-cycles.mjs';

const dirs = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A repository of `files` (path → source) in a temporary folder. */
function tree(files) {
  const root = mkdtempSync(join(tmpdir(), 'cycles-'));
  dirs.push(root);
  for (const [path, source] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), source);
  }
  return root;
}

describe('the import cycle check', () => {
  it('reads static, type-only, re-exported, side-effect and dynamic imports, not comments', () => {
    const src = [
      "import a from './a';",
      "import type { B } from '../b';",
      "import {\n  type C,\n  d,\n} from './c';",
      "export * from './e';",
      "export type { F } from './f';",
      "import './g';",
      "const h = () => import('./h');",
      "// import x from './commented';",
      "/* export { y } from './block'; */",
      "const s = 'import z from';",
    ].join('\n');
    expect(parseImports(src).sort()).toEqual(['../b', './a', './c', './e', './f', './g', './h']);
  });

  it('passes an acyclic tree', () => {
    const root = tree({
      'src/shared/rule.ts': 'export const RULE = 1;',
      'src/config/config.ts': "import { RULE } from '../shared/rule';\nexport const C = RULE;",
      'src/shorts/short.ts': "import { C } from '../config/config';\nexport const S = C;",
      'web/src/App.tsx': "import { RULE } from '@shared/rule';\nimport { x } from './lib/x';",
      'web/src/lib/x.ts': 'export const x = 1;',
    });
    expect(check(root, []).cycles).toEqual([]);
  });

  it('finds a file cycle, also through `import type` and the web alias', () => {
    const root = tree({
      'src/a/one.ts': "import type { Two } from './two';\nexport type One = Two;",
      'src/a/two.ts': "import type { One } from './one';\nexport type Two = One;",
      'web/src/x.tsx': "import { y } from './y';\nexport const x = y;",
      'web/src/y.ts': "import { x } from './x';\nexport const y = x;",
    });
    expect(check(root, []).cycles).toEqual([
      'file cycle: src/a/one.ts -> src/a/two.ts -> src/a/one.ts',
      'file cycle: web/src/x.tsx -> web/src/y.ts -> web/src/x.tsx',
    ]);
  });

  it('finds a folder cycle between files that form no file cycle; tests draw no folder arrow', () => {
    const root = tree({
      'src/config/config.ts': "import { MASK } from '../logging/mask';\nexport const C = MASK;",
      'src/logging/mask.ts': "export const MASK = '*';",
      'src/logging/log.ts': "import { C } from '../config/config';\nexport const L = C;",
      'src/shared/rule.ts': 'export const R = 1;',
      'src/shared/rule.spec.ts': "import { L } from '../logging/log';\nimport { R } from './rule';",
    });
    expect(check(root, []).cycles).toEqual([
      'folder cycle: src/config -> src/logging -> src/config',
    ]);
  });

  it('leaves out the known arrows, and names the ones that are gone', () => {
    const root = tree({
      'src/a/a.ts': "import { b } from '../b/b';\nexport const a = b;",
      'src/b/b.ts': "import { c } from '../c/c';\nexport const b = c;",
      'src/c/c.ts': "import { a } from '../a/a';\nexport const c = a;",
    });
    expect(check(root, []).cycles).toEqual([
      'file cycle: src/a/a.ts -> src/b/b.ts -> src/c/c.ts -> src/a/a.ts',
      'folder cycle: src/a -> src/b -> src/c -> src/a',
    ]);
    const known = ['src/c/c.ts -> src/a/a.ts', 'src/c -> src/a', 'src/x -> src/y'];
    expect(check(root, known)).toMatchObject({ cycles: [], stale: ['src/x -> src/y'] });
  });

  it('answers one cycle per tangle: a shortest path round it, and the other members', () => {
    const graph = new Map([
      ['a', new Set(['b'])],
      ['b', new Set(['a', 'c'])],
      ['c', new Set(['a'])],
    ]);
    expect(findCycles(graph)).toEqual([['a', 'b', 'a']]);
    const root = tree({
      'src/x/a.ts': "import { b } from './b';",
      'src/x/b.ts': "import { a } from './a';\nimport { c } from './c';",
      'src/x/c.ts': "import { a } from './a';",
    });
    expect(check(root, []).cycles).toEqual([
      'file cycle: src/x/a.ts -> src/x/b.ts -> src/x/a.ts (also in this cycle: src/x/c.ts)',
    ]);
  });
});
