import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { useBeforeAll } from './hooks';

export type Route = (req: IncomingMessage, res: ServerResponse) => void;

/** How a response's connection ended, seen from the fake server. */
export interface ClosedInfo {
  /** res.end() had been called (the page was complete) when the connection closed. */
  ended: boolean;
  /** Body bytes handed to the socket when it closed. */
  bytesWritten: number;
}

export interface FakeSite {
  /** http://127.0.0.1:{port} */
  url: string;
  port: number;
  /** TCP connections accepted (on any bound address). */
  connections: number;
  /** Requests received, in order, as paths. */
  requests: string[];
  hits(path: string): number;
  /** Resolves when the response to the next/last request for `path` closes. */
  closed(path: string): Promise<ClosedInfo>;
  close(): Promise<void>;
}

/**
 * A tiny HTTP server on 127.0.0.1 (and, with `ipv6`, also on [::1] with the same port)
 * that serves the given routes, counts every connection and request, and reports how
 * each response's connection ended. Unknown paths get 404.
 */
export async function startFakeSite(
  routes: Record<string, Route>,
  opts: { ipv6?: boolean } = {},
): Promise<FakeSite> {
  const sockets = new Set<Socket>();
  const requests: string[] = [];
  const closedWaiters = new Map<
    string,
    { promise: Promise<ClosedInfo>; resolve: (c: ClosedInfo) => void }
  >();
  const waiter = (path: string) => {
    let w = closedWaiters.get(path);
    if (!w) {
      let resolve!: (c: ClosedInfo) => void;
      const promise = new Promise<ClosedInfo>((r) => (resolve = r));
      w = { promise, resolve };
      closedWaiters.set(path, w);
    }
    return w;
  };
  let connections = 0;

  const handler = (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '/').split('?')[0];
    requests.push(path);
    let bytes = 0;
    const write = res.write.bind(res) as (chunk: unknown, ...rest: unknown[]) => boolean;
    res.write = ((chunk: unknown, ...rest: unknown[]) => {
      if (typeof chunk === 'string' || Buffer.isBuffer(chunk))
        bytes += Buffer.byteLength(chunk as string);
      return write(chunk, ...rest);
    }) as typeof res.write;
    res.on('close', () => waiter(path).resolve({ ended: res.writableEnded, bytesWritten: bytes }));
    const route = routes[path];
    if (!route) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    route(req, res);
  };

  const servers: Server[] = [];
  const track = (server: Server) => {
    server.on('connection', (s: Socket) => {
      connections++;
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
    });
    servers.push(server);
  };

  let port = 0;
  for (let attempt = 0; attempt < 10 && port === 0; attempt++) {
    const v4 = createServer(handler);
    v4.listen(0, '127.0.0.1');
    await once(v4, 'listening');
    const p = (v4.address() as { port: number }).port;
    if (!opts.ipv6) {
      track(v4);
      port = p;
      break;
    }
    const v6 = createServer(handler);
    try {
      v6.listen(p, '::1');
      await once(v6, 'listening');
      track(v4);
      track(v6);
      port = p;
    } catch {
      v4.close();
    }
  }
  if (port === 0)
    throw new Error('could not bind the fake site on 127.0.0.1 and [::1] with one port');

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    get connections() {
      return connections;
    },
    requests,
    hits: (path) => requests.filter((p) => p === path).length,
    closed: (path) => waiter(path).promise,
    close: async () => {
      for (const s of sockets) s.destroy();
      await Promise.all(servers.map((s) => new Promise<void>((r) => s.close(() => r()))));
    },
  };
}

/** An HTML page with the given head markup and body. */
export function htmlPage(head: string, body = '<p>hello</p>'): string {
  return `<!doctype html><html><head>${head}</head><body>${body}</body></html>`;
}

export function serveHtml(html: string, contentType = 'text/html; charset=utf-8'): Route {
  return (_req, res) => {
    res.writeHead(200, { 'content-type': contentType });
    res.end(html);
  };
}

/**
 * A fake site of a describe block: started in `beforeAll`, closed in `afterAll`. `routes` may be a
 * function, called in `beforeAll`, for routes that name what an earlier hook started.
 */
export function useFakeSite(
  routes: Record<string, Route> | (() => Record<string, Route>),
  opts: { ipv6?: boolean } = {},
): FakeSite {
  return useBeforeAll(
    'the fake site',
    () => startFakeSite(typeof routes === 'function' ? routes() : routes, opts),
    (site) => site.close(),
  );
}
