// CPU time of a process's threads, by thread name (/proc/<pid>/task/<tid>/stat): which thread of
// an app did a round's work (the main thread, a worker such as the statistics writer's or reader's,
// V8's helper threads for the garbage collector, libuv's pool).
import { readdirSync, readFileSync } from 'node:fs';

/** CPU milliseconds (user + system) so far per thread name, threads of one name summed. */
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
    const ms = ((Number(f[11]) + Number(f[12])) * 1000) / ticks;
    byName.set(name, (byName.get(name) ?? 0) + ms);
  }
  return byName;
}

/**
 * Per thread name, the milliseconds between two readings of threadsMs divided by `n` (per
 * request), those of at least `min`; a thread that ended meanwhile is not counted.
 */
export function threadsPer(before, after, n, min = 0.005) {
  const per = new Map();
  for (const [name, ms] of after) {
    const v = (ms - (before.get(name) ?? 0)) / n;
    if (v >= min) per.set(name, v);
  }
  return per;
}
