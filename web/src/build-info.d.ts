/** The app's version from package.json, set by the build (vite.config.mts `define`). */
declare const __APP_VERSION__: string;
