import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { inflateSync } from 'node:zlib';

export interface BuildInfo {
  /** ISO time of the build (null when unknown, e.g. running from sources). */
  time: string | null;
  commit: { id: string | null; time: string | null };
  branch: string | null;
}

/** Reads HEAD of a git checkout directly from `.git` (no child process). */
export function readGit(root: string): BuildInfo['commit'] & { branch: string | null } {
  const none = { id: null, time: null, branch: null };
  const gitDir = join(root, '.git');
  try {
    if (!existsSync(join(gitDir, 'HEAD'))) return none;
    const head = readFileSync(join(gitDir, 'HEAD'), 'utf8').trim();
    let id: string | null = null;
    let branch: string | null = null;
    if (head.startsWith('ref: ')) {
      const ref = head.slice(5);
      branch = ref.replace(/^refs\/heads\//, '');
      const refFile = join(gitDir, ref);
      if (existsSync(refFile)) id = readFileSync(refFile, 'utf8').trim();
      else if (existsSync(join(gitDir, 'packed-refs'))) {
        const line = readFileSync(join(gitDir, 'packed-refs'), 'utf8')
          .split('\n')
          .find((l) => l.endsWith(` ${ref}`));
        id = line ? line.split(' ')[0] : null;
      }
    } else if (/^[0-9a-f]{40}$/.test(head)) id = head;
    if (!id || !/^[0-9a-f]{40,64}$/.test(id)) return { id: null, time: null, branch };
    let time: string | null = null;
    const obj = join(gitDir, 'objects', id.slice(0, 2), id.slice(2));
    if (existsSync(obj)) {
      const text = inflateSync(readFileSync(obj)).toString('utf8');
      const m = /\ncommitter .* (\d+) [+-]\d{4}\n/.exec(text);
      if (m) time = new Date(Number(m[1]) * 1000).toISOString();
    }
    return { id, time, branch };
  } catch {
    return none;
  }
}

/**
 * Build facts, read once at start: `dist/build-info.json` written by `npm run build`
 * (scripts/build-info.mjs), else the git checkout the server runs from.
 */
export function loadBuildInfo(root = process.cwd()): BuildInfo {
  for (const file of [resolve(root, 'dist/build-info.json'), resolve(root, 'build-info.json')]) {
    try {
      if (existsSync(file)) {
        const b = JSON.parse(readFileSync(file, 'utf8')) as Partial<BuildInfo>;
        return {
          time: typeof b.time === 'string' ? b.time : null,
          commit: { id: b.commit?.id ?? null, time: b.commit?.time ?? null },
          branch: b.branch ?? null,
        };
      }
    } catch {
      /* fall through to git */
    }
  }
  const git = readGit(root);
  return { time: null, commit: { id: git.id, time: git.time }, branch: git.branch };
}
