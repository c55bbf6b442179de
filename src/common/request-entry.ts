import type { IncomingMessage, Server, ServerResponse } from 'node:http';

export type RequestHandler = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * Puts `entry` in front of the server's request listeners (Express, or an entry put there
 * before): it answers what it takes and hands every other request to `next`, the listeners that
 * were there, untouched. The follow and the anonymous create are answered this way (see
 * follow/follow-http.ts, shorts/create-http.ts).
 */
export function putInFront(
  server: Server,
  entry: (req: IncomingMessage, res: ServerResponse, next: RequestHandler) => void,
): void {
  const listeners = server.listeners('request') as RequestHandler[];
  server.removeAllListeners('request');
  const next: RequestHandler = (req, res) => {
    for (const l of listeners) l.call(server, req, res);
  };
  server.on('request', (req: IncomingMessage, res: ServerResponse) => entry(req, res, next));
}
