import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

const PACKAGE_NAME = 'url-shorter';

/**
 * The `version` of this app's package.json: the nearest package.json named `url-shorter` above
 * `from`. The same code finds it from the sources (src/config) and from the build
 * (dist/src/config), whatever the working directory is.
 */
export function readPackageVersion(from: string = __dirname): string {
  for (let dir = from; ; dir = dirname(dir)) {
    const file = join(dir, 'package.json');
    if (existsSync(file)) {
      const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name?: unknown; version?: unknown };
      if (pkg.name === PACKAGE_NAME && typeof pkg.version === 'string') return pkg.version;
    }
    if (dirname(dir) === dir) {
      throw new Error(`No package.json of ${PACKAGE_NAME} with a version above ${from}`);
    }
  }
}

/** The app's version (package.json), read once: /management/info, Sentry release, OpenAPI, web client. */
export const APP_VERSION = readPackageVersion();
