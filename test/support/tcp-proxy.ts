import { connect, createServer, type Server, type Socket } from 'node:net';

/**
 * A loopback TCP proxy in front of a real server (e.g. MariaDB), so a test can take the server away
 * without touching it:
 * - stop(): the listener closes and every connection is cut (refused, like a server that is down);
 *   start() opens the same port again;
 * - partition(): connections stay open but no byte passes in either direction (a silent network,
 *   the case only timeouts catch); partition('answers'): requests still reach the server, its
 *   answers are lost; heal() lets bytes pass again and cuts the connections that lost bytes
 *   meanwhile (their protocol state is broken).
 */
export class TcpProxy {
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();
  private readonly damaged = new Set<Socket>();
  private partitioned: false | 'both' | 'answers' = false;
  port = 0;

  constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {}

  private forward(from: Socket, to: Socket, answers: boolean): void {
    from.on('data', (chunk: Buffer) => {
      if (this.partitioned === 'both' || (this.partitioned === 'answers' && answers)) {
        this.damaged.add(from).add(to);
        return;
      }
      if (!to.write(chunk)) {
        from.pause();
        to.once('drain', () => from.resume());
      }
    });
    from.on('end', () => to.end());
  }

  /** Listens (again); a proxy that is listening already stays as it is. */
  async start(): Promise<number> {
    if (this.server) return this.port;
    const server = createServer((client) => {
      const upstream = connect(this.targetPort, this.targetHost);
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('close', () => {
          this.sockets.delete(s);
          this.damaged.delete(s);
        });
        s.on('error', () => {
          client.destroy();
          upstream.destroy();
        });
      }
      this.forward(client, upstream, false);
      this.forward(upstream, client, true);
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.server = server;
    this.port = (server.address() as { port: number }).port;
    return this.port;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    for (const s of this.sockets) s.destroy();
    this.sockets.clear();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  partition(what: 'both' | 'answers' = 'both'): void {
    this.partitioned = what;
  }

  heal(): void {
    this.partitioned = false;
    for (const s of this.damaged) s.destroy();
    this.damaged.clear();
  }
}
