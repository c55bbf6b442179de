// Writes dist/build-info.json (build time, git commit and branch) after `nest build`.
// Read once by the server at start for /management/info; no git process at run time.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';

function git(...args) {
  try {
    return (
      execFileSync('git', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim() ||
      null
    );
  } catch {
    return null;
  }
}

const commitTime = git('log', '-1', '--format=%cI');
const info = {
  time: new Date().toISOString(),
  commit: {
    id: git('rev-parse', 'HEAD'),
    time: commitTime ? new Date(commitTime).toISOString() : null,
  },
  branch: git('rev-parse', '--abbrev-ref', 'HEAD'),
};
mkdirSync('dist', { recursive: true });
writeFileSync('dist/build-info.json', JSON.stringify(info, null, 2) + '\n');
console.log(`build-info: ${info.commit.id ?? 'no git'} at ${info.time}`);
