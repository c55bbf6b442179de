// Preloaded into the built server by a test (node --require): on SIGUSR2 the process throws an
// uncaught exception whose message carries APP_SECRET, so the test can check that the crash is
// logged and reported with the secret masked, and that the process exits.
/* global setImmediate */
process.on('SIGUSR2', () => {
  setImmediate(() => {
    throw new Error(`crash-canary ${process.env.APP_SECRET}`);
  });
});
