import app from './App.tsx?raw';
import { CLIENT_ROUTES } from '@shared/client-routes';
import { isReservedCode } from '@shared/limits';
import { describe, expect, it } from 'vitest';

describe("the client's routes", () => {
  it('come from the table the server reserves: App.tsx writes no path of its own', () => {
    expect(app).not.toMatch(/<Route\s+path="/);
    const used = [...app.matchAll(/path=\{ROUTES\.(\w+)\}/g)].map((m) => m[1]);
    expect(new Set(used)).toEqual(new Set(Object.keys(CLIENT_ROUTES)));
  });

  it('cannot be taken by a code: the first segment of every route is reserved', () => {
    for (const path of Object.values(CLIENT_ROUTES)) {
      const root = path.split('/')[1];
      if (root) expect(isReservedCode(root), path).toBe(true);
    }
  });
});
