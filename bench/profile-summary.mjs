#!/usr/bin/env node
// Summarises a V8 .cpuprofile (from `BENCH_CPU_PROF=dir npm run bench`): where the self time goes,
// by package/area and by function. Usage: node bench/profile-summary.mjs file.cpuprofile [top=25]
import { readFileSync } from 'node:fs';

const [file, topArg] = process.argv.slice(2);
if (!file) {
  console.error('usage: node bench/profile-summary.mjs file.cpuprofile [top]');
  process.exit(2);
}
const top = Number(topArg ?? 25);
const prof = JSON.parse(readFileSync(file, 'utf8'));
const byId = new Map(prof.nodes.map((n) => [n.id, n]));

// Self time per node from the sample list and time deltas.
const self = new Map();
prof.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (prof.timeDeltas[i] ?? 0)));
const total = [...self.values()].reduce((a, b) => a + b, 0);

function area(url) {
  if (!url) return '(native/V8)';
  const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (m) return m[1];
  if (url.startsWith('node:')) return 'node:' + url.slice(5).split('/')[0];
  const d = /\/dist\/(src\/[^/]+)/.exec(url);
  if (d) return 'app ' + d[1];
  return url.replace(/^file:\/\//, '');
}

const areas = new Map();
const funcs = new Map();
for (const [id, t] of self) {
  const n = byId.get(id);
  const cf = n.callFrame;
  const a = ['(idle)', '(program)', '(garbage collector)'].includes(cf.functionName)
    ? cf.functionName
    : area(cf.url);
  areas.set(a, (areas.get(a) ?? 0) + t);
  const key = `${cf.functionName || '(anonymous)'}  ${area(cf.url)}${cf.url ? ':' + (cf.lineNumber + 1) : ''}`;
  funcs.set(key, (funcs.get(key) ?? 0) + t);
}
const pct = (t) => ((100 * t) / total).toFixed(1).padStart(5) + ' %';
console.log(`${file}: ${(total / 1e6).toFixed(1)} s sampled`);
console.log('\nself time by area:');
for (const [a, t] of [...areas].sort((x, y) => y[1] - x[1]).slice(0, top))
  console.log(`${pct(t)}  ${a}`);
console.log('\nself time by function:');
for (const [f, t] of [...funcs].sort((x, y) => y[1] - x[1]).slice(0, top))
  console.log(`${pct(t)}  ${f}`);
