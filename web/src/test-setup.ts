import '@testing-library/jest-dom/vitest';
import { afterAll } from 'vitest';

// The API client is created at import with the global Request, which (outside a browser) refuses
// the client's same-origin relative paths: resolve them against the test page's origin first.
const Base = globalThis.Request;
globalThis.Request = class extends Base {
  constructor(input: RequestInfo | URL, init?: RequestInit) {
    super(
      typeof input === 'string' && input.startsWith('/') ? `http://localhost${input}` : input,
      init,
    );
  }
} as typeof Request;

// A closing modal or toast leaves a transition-end timer (dom-helpers: the CSS duration, 0 in jsdom,
// plus 5 ms). Let such timers run before the file's environment is torn down, where they would meet
// no `document`.
afterAll(() => new Promise<void>((done) => setTimeout(done, 50)));
