import '@testing-library/jest-dom/vitest';

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
