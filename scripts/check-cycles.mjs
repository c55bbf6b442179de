#!/usr/bin/env node
// Import cycles: fails (exit 1, naming each cycle) when
//   (a) a file of src/ or web/src/ reaches itself through its imports (relative paths, and the web's
//       `@shared/…` alias for src/shared; `import type`, `export … from` and `import()` count), or
//   (b) a top-level folder of src/ reaches itself through the imports of its files (src/a → src/b →
//       src/a), files at the top of src/ (main.ts, app.module.ts, …) counting as the folder `.`.
// Plain Node, no dependency: the imports are read with regular expressions after comments are
// stripped, which is enough for this code base (no import specifier is ever computed).
//   node scripts/check-cycles.mjs            check the repository it lives in
//   node scripts/check-cycles.mjs --graph    also print the folder-level graph of src/
// CYCLES_ALLOW="a -> b, c -> d" adds arrows to KNOWN below for one run.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * Arrows (file → file, or folder → folder under src/) that close a cycle and are being removed by
 * work not merged yet. An arrow listed here is left out of the graph; a listed arrow that is no
 * longer there is reported so that its entry is deleted. The list is meant to be empty.
 */
export const KNOWN = [];

const SOURCE = /\.(ts|tsx|mts|cts|js|jsx|mjs|cjs)$/;
const EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs'];

/** Every source file under `dir` (absolute paths), declaration files and node_modules left out. */
export function listFiles(dir) {
  const out = [];
  const walk = (d) => {
    for (const name of readdirSync(d).sort()) {
      if (name === 'node_modules' || name.startsWith('.')) continue;
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (SOURCE.test(name) && !name.endsWith('.d.ts')) out.push(p);
    }
  };
  if (existsSync(dir)) walk(dir);
  return out;
}

/** The source with comments replaced by spaces (string and template literals kept as they are). */
export function stripComments(src) {
  let out = '';
  let i = 0;
  while (i < src.length) {
    const c = src[i];
    const n = src[i + 1];
    if (c === '/' && n === '/') {
      while (i < src.length && src[i] !== '\n') i++;
    } else if (c === '/' && n === '*') {
      const end = src.indexOf('*/', i + 2);
      const stop = end < 0 ? src.length : end + 2;
      out += src.slice(i, stop).replace(/[^\n]/g, ' ');
      i = stop;
    } else if (c === "'" || c === '"' || c === '`') {
      let j = i + 1;
      while (j < src.length && src[j] !== c) j += src[j] === '\\' ? 2 : 1;
      out += src.slice(i, j + 1);
      i = j + 1;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

/** The module specifiers a file names: static imports and re-exports (types too), `import()`, `require()`. */
export function parseImports(src) {
  const code = stripComments(src);
  const specs = [];
  const patterns = [
    // import x from '…', import type { X } from '…', export { x } from '…', export * from '…'
    /\b(?:import|export)\s+(?:type\s+)?[\w*${},\s]*?\s*from\s*['"]([^'"]+)['"]/g,
    // import '…' (side effects only)
    /\bimport\s+['"]([^'"]+)['"]/g,
    // import('…'), require('…'), and the type position `typeof import('…')`
    /\b(?:import|require)\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
  ];
  for (const re of patterns) for (const m of code.matchAll(re)) specs.push(m[1]);
  return specs;
}

/**
 * The file a specifier names, or undefined for a package (or a file that does not exist).
 * `aliases` maps a prefix such as `@shared/` to an absolute folder.
 */
export function resolveImport(fromFile, spec, aliases = {}) {
  let base;
  if (spec.startsWith('./') || spec.startsWith('../')) base = resolve(dirname(fromFile), spec);
  else {
    const alias = Object.keys(aliases).find((a) => spec.startsWith(a));
    if (!alias) return undefined;
    base = join(aliases[alias], spec.slice(alias.length));
  }
  const candidates = [base];
  // './x.js' in TypeScript names './x.ts'
  const js = base.match(/^(.*)\.(m|c)?js$/);
  if (js) candidates.push(`${js[1]}.${js[2] ?? ''}ts`, `${js[1]}.tsx`);
  for (const ext of EXTENSIONS) candidates.push(base + ext);
  for (const ext of EXTENSIONS) candidates.push(join(base, `index${ext}`));
  return candidates.find((p) => existsSync(p) && statSync(p).isFile() && SOURCE.test(p));
}

/**
 * The file graph of several roots: `roots` is a list of { dir, aliases }; every path in the answer
 * is relative to `cwd` with forward slashes. Answers Map<file, Set<file>>.
 */
export function fileGraph(cwd, roots) {
  const graph = new Map();
  const rel = (p) => relative(cwd, p).split(sep).join('/');
  for (const { dir, aliases } of roots)
    for (const file of listFiles(resolve(cwd, dir))) {
      const deps = new Set();
      for (const spec of parseImports(readFileSync(file, 'utf8'))) {
        const target = resolveImport(file, spec, aliases);
        if (target && target !== file) deps.add(rel(target));
      }
      graph.set(rel(file), deps);
    }
  return graph;
}

/** Tests: they may assemble their subject with higher layers, so they draw no folder arrow. */
const TEST_FILE = /\.(spec|test|e2e-spec)\.[cm]?[jt]sx?$/;

/**
 * The folder graph of one source folder (`src`): each file belongs to the top-level folder it lies in
 * (`src/shorts`), files directly in it to `src/.`; arrows inside a folder and the imports of tests are
 * left out.
 */
export function folderGraph(files, srcDir) {
  const folderOf = (file) => {
    if (!file.startsWith(`${srcDir}/`)) return undefined;
    const parts = file.slice(srcDir.length + 1).split('/');
    return `${srcDir}/${parts.length > 1 ? parts[0] : '.'}`;
  };
  const graph = new Map();
  for (const [file, deps] of files) {
    const from = folderOf(file);
    if (!from || TEST_FILE.test(file)) continue;
    if (!graph.has(from)) graph.set(from, new Set());
    for (const dep of deps) {
      const to = folderOf(dep);
      if (to && to !== from) graph.get(from).add(to);
    }
  }
  return graph;
}

/** A copy of the graph without the arrows `from -> to` listed in `allowed`. */
export function withoutArrows(graph, allowed) {
  const out = new Map();
  for (const [from, deps] of graph)
    out.set(from, new Set([...deps].filter((to) => !allowed.includes(`${from} -> ${to}`))));
  return out;
}

/** The arrows of `allowed` that are not in any of the graphs (their entries can go). */
export function staleArrows(graphs, allowed) {
  return allowed.filter((arrow) => {
    const [from, to] = arrow.split(' -> ');
    return !graphs.some((g) => g.get(from)?.has(to));
  });
}

/**
 * The cycles of a graph: one per strongly connected component with more than one node, each as a
 * path that starts and ends at the component's first node in sorted order.
 */
export function findCycles(graph) {
  return components(graph).map((component) => cyclePath(graph, component));
}

/** The strongly connected components with more than one node (Tarjan), sorted. */
export function components(graph) {
  let index = 0;
  const idx = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const components = [];
  const nodes = [...graph.keys()].sort();
  // Iterative Tarjan: a deep import chain must not overflow the call stack.
  for (const root of nodes) {
    if (idx.has(root)) continue;
    const work = [[root, [...(graph.get(root) ?? [])].sort(), 0]];
    idx.set(root, index);
    low.set(root, index++);
    stack.push(root);
    onStack.add(root);
    while (work.length) {
      const frame = work[work.length - 1];
      const [v, deps] = frame;
      if (frame[2] < deps.length) {
        const w = deps[frame[2]++];
        if (!idx.has(w)) {
          idx.set(w, index);
          low.set(w, index++);
          stack.push(w);
          onStack.add(w);
          work.push([w, [...(graph.get(w) ?? [])].sort(), 0]);
        } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), idx.get(w)));
        continue;
      }
      work.pop();
      if (work.length) {
        const parent = work[work.length - 1][0];
        low.set(parent, Math.min(low.get(parent), low.get(v)));
      }
      if (low.get(v) === idx.get(v)) {
        const component = [];
        let w;
        do {
          w = stack.pop();
          onStack.delete(w);
          component.push(w);
        } while (w !== v);
        if (component.length > 1) components.push(component.sort());
      }
    }
  }
  return components.sort((a, b) => (a[0] < b[0] ? -1 : 1));
}

/** A shortest path from the component's first node back to itself, inside the component. */
function cyclePath(graph, component) {
  const inside = new Set(component);
  const start = component[0];
  const prev = new Map();
  const queue = [start];
  while (queue.length) {
    const v = queue.shift();
    for (const w of [...(graph.get(v) ?? [])].sort()) {
      if (!inside.has(w)) continue;
      if (w === start) {
        const path = [start];
        for (let u = v; u !== start; u = prev.get(u)) path.unshift(u);
        path.unshift(start);
        return path;
      }
      if (!prev.has(w)) {
        prev.set(w, v);
        queue.push(w);
      }
    }
  }
  return [...component, start];
}

/** One line per cycle: a path round it, and the other nodes that take part when there are more. */
function describeCycles(kind, graph) {
  return components(graph).map((component) => {
    const path = cyclePath(graph, component);
    const others = component.filter((n) => !path.includes(n));
    const also = others.length ? ` (also in this cycle: ${others.join(', ')})` : '';
    return `${kind} cycle: ${path.join(' -> ')}${also}`;
  });
}

/** The check of one repository: answers { cycles: string[], stale: string[], folders: Map }. */
export function check(cwd, allowed = KNOWN) {
  const files = fileGraph(cwd, [
    { dir: 'src', aliases: {} },
    { dir: 'web/src', aliases: { '@shared/': resolve(cwd, 'src/shared') } },
  ]);
  const folders = folderGraph(files, 'src');
  const cycles = [
    ...describeCycles('file', withoutArrows(files, allowed)),
    ...describeCycles('folder', withoutArrows(folders, allowed)),
  ];
  return { cycles, stale: staleArrows([files, folders], allowed), folders };
}

function main() {
  const cwd = resolve(dirname(fileURLToPath(import.meta.url)), '..');
  const extra = (process.env.CYCLES_ALLOW ?? '')
    .split(',')
    .map((s) => s.trim().replace(/\s*->\s*/, ' -> '))
    .filter(Boolean);
  const { cycles, stale, folders } = check(cwd, [...KNOWN, ...extra]);
  if (process.argv.includes('--graph'))
    for (const [from, deps] of [...folders].sort())
      console.log(`${from} -> ${[...deps].sort().join(', ') || '–'}`);
  for (const arrow of stale)
    console.log(`cycles: the known arrow "${arrow}" is gone; delete it from KNOWN`);
  for (const cycle of cycles) console.error(cycle);
  if (cycles.length) {
    console.error(`cycles: ${cycles.length} import cycle(s) in src/ or web/src/`);
    process.exit(1);
  }
  console.log('cycles: no import cycle in src/ or web/src/');
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) main();
