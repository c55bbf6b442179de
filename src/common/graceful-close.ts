import type { IncomingMessage, Server, ServerResponse } from 'node:http';

/** After this long, connections still open at shutdown are cut (a client that never lets go). */
export const SHUTDOWN_GRACE_MS = 10_000;

/**
 * A shutdown that finishes what it took and lets no connection hold the process: when the server
 * closes (Nest's app.close() on SIGTERM), idle keep-alive connections are closed at once (Node), a
 * request under way is answered with `Connection: close` so its connection ends with the answer,
 * and whatever is still open after `graceMs` is cut. Without this a client that keeps its
 * keep-alive connection open keeps the process alive, and the buffered counts wait with it.
 */
export function closeGracefully(server: Server, graceMs = SHUTDOWN_GRACE_MS): void {
  const underway = new Set<ServerResponse>();
  let closing = false;
  server.prependListener('request', (_req: IncomingMessage, res: ServerResponse) => {
    if (closing) res.setHeader('Connection', 'close');
    underway.add(res);
    res.once('close', () => underway.delete(res));
  });
  const close = server.close.bind(server);
  server.close = ((callback?: (err?: Error) => void) => {
    closing = true;
    for (const res of underway) if (!res.headersSent) res.setHeader('Connection', 'close');
    close(callback);
    server.closeIdleConnections();
    setTimeout(() => server.closeAllConnections(), graceMs).unref();
    return server;
  }) as Server['close'];
}
