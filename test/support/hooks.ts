import { afterAll, beforeAll } from 'vitest';

/**
 * A value a describe block's tests share, made in `beforeAll` and disposed of in `afterAll`:
 *
 *   const t = useBeforeAll('test app', () => createTestApp(), (app) => app.close());
 *   it('…', async () => { await t.fetch('/') });
 *
 * It returns at once a stand-in that forwards every property to the value once `beforeAll` has
 * made it; reading it earlier (in the describe body itself) throws, naming `what`. Hooks run in
 * the order they are registered and the `afterAll`s in reverse, so a value made later may use one
 * made earlier and is disposed of first. If making it fails, the tests of the block fail with
 * that error and nothing is disposed of.
 */
export function useBeforeAll<T extends object>(
  what: string,
  make: () => Promise<T> | T,
  dispose?: (value: T) => Promise<unknown> | unknown,
): T {
  let value: T | undefined;
  beforeAll(async () => {
    value = await make();
  });
  if (dispose) {
    afterAll(async () => {
      if (value !== undefined) await dispose(value);
      value = undefined;
    });
  }
  const get = (): T => {
    if (value === undefined)
      throw new Error(`${what} is not there: it is made in beforeAll; use it in tests and hooks`);
    return value;
  };
  return new Proxy({} as T, {
    // Symbols (inspection, `then` checks of await) read as absent before the value is made.
    get: (_, key) =>
      value === undefined && typeof key === 'symbol' ? undefined : Reflect.get(get(), key),
    has: (_, key) => Reflect.has(get(), key),
    ownKeys: () => Reflect.ownKeys(get()),
    getOwnPropertyDescriptor: (_, key) => {
      const d = Reflect.getOwnPropertyDescriptor(get(), key);
      return d && { ...d, configurable: true };
    },
  });
}
