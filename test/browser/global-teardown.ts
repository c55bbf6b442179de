import { rmSync } from 'node:fs';

/** Removes the temporary data folder (SQLite files) of the browser-test servers. */
export default function globalTeardown(): void {
  const dir = process.env.BROWSER_DATA_DIR;
  if (dir && dir.includes('url-shorter-browser-')) rmSync(dir, { recursive: true, force: true });
}
