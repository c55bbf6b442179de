import { Agent, createServer, request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { closeGracefully } from './graceful-close';

describe('closeGracefully', () => {
  it('answers the request under way, then ends its keep-alive connection, so close() completes', async () => {
    const server = createServer((_req, res) => {
      setTimeout(() => res.end('done'), 100);
    });
    closeGracefully(server, 60_000);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as { port: number };
    const agent = new Agent({ keepAlive: true, keepAliveMsecs: 60_000 });
    const answer = new Promise<{ body: string; connection: string | undefined }>(
      (resolve, reject) => {
        const req = request({ port, host: '127.0.0.1', agent }, (res) => {
          let body = '';
          res.on('data', (d: Buffer) => (body += d.toString()));
          res.on('end', () => resolve({ body, connection: res.headers.connection }));
        });
        req.on('error', reject);
        req.end();
      },
    );
    await new Promise((r) => setTimeout(r, 30)); // the request is under way
    const start = Date.now();
    const closed = new Promise<void>((r) => server.close(() => r()));
    expect(await answer).toEqual({ body: 'done', connection: 'close' });
    await closed;
    expect(Date.now() - start).toBeLessThan(5_000);
    agent.destroy();
  });
});
