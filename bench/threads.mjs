// CPU time of a process's threads, by thread name (/proc/<pid>/task/<tid>/stat): which thread of
// an app did a round's work (the main thread, a worker such as the statistics writer's or reader's,
// V8's helper threads for the garbage collector, libuv's pool), and how much of it in the kernel.
import { readdirSync, readFileSync } from 'node:fs';

/**
 * CPU milliseconds so far per thread name, threads of one name summed: `cpu` (user + system) and
 * `sys` (system alone: system calls, page faults, the scheduler's work for it).
 */
export function threadsMs(pid, ticks) {
  const byName = new Map();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    let stat;
    try {
      stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
    } catch {
      continue; // ended meanwhile
    }
    const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const user = (Number(f[11]) * 1000) / ticks;
    const sys = (Number(f[12]) * 1000) / ticks;
    const was = byName.get(name) ?? { cpu: 0, sys: 0 };
    byName.set(name, { cpu: was.cpu + user + sys, sys: was.sys + sys });
  }
  return byName;
}

/**
 * Per thread name, the CPU between two readings of threadsMs divided by `n` (per request), for
 * those with at least `min`; a thread that ended meanwhile is not counted.
 */
export function threadsPer(before, after, n, min = 0.005) {
  const per = new Map();
  for (const [name, { cpu, sys }] of after) {
    const was = before.get(name) ?? { cpu: 0, sys: 0 };
    const v = { cpu: (cpu - was.cpu) / n, sys: (sys - was.sys) / n };
    if (v.cpu >= min) per.set(name, v);
  }
  return per;
}
