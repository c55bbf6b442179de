import { createServer, type Server } from 'node:http';
import { gunzipSync } from 'node:zlib';

export interface SentryEnvelope {
  /** The raw envelope text (header line, item headers, payloads). */
  raw: string;
  /** Parsed JSON lines of the envelope. */
  items: unknown[];
  path: string;
}

/**
 * A fake Sentry ingest server on loopback: accepts envelopes at /api/{project}/envelope/ and
 * keeps them for assertions. DSN: http://{key}@127.0.0.1:{port}/{project}.
 */
export class FakeSentry {
  readonly envelopes: SentryEnvelope[] = [];
  private server: Server | null = null;
  port = 0;

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        let body = Buffer.concat(chunks);
        if (req.headers['content-encoding'] === 'gzip') body = gunzipSync(body);
        const raw = body.toString('utf8');
        const items = raw
          .split('\n')
          .filter((l) => l.trim())
          .map((l) => {
            try {
              return JSON.parse(l) as unknown;
            } catch {
              return l;
            }
          });
        this.envelopes.push({ raw, items, path: req.url ?? '' });
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{}');
      });
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', () => resolve()));
    this.port = (this.server.address() as { port: number }).port;
  }

  dsn(key = 'publickey', project = 1): string {
    return `http://${key}@127.0.0.1:${this.port}/${project}`;
  }

  /** Error events (item type "event") received so far. */
  events(): Array<Record<string, unknown>> {
    const out: Array<Record<string, unknown>> = [];
    for (const e of this.envelopes) {
      for (let i = 0; i < e.items.length - 1; i++) {
        const h = e.items[i] as { type?: string };
        if (h && typeof h === 'object' && h.type === 'event')
          out.push(e.items[i + 1] as Record<string, unknown>);
      }
    }
    return out;
  }

  async stop(): Promise<void> {
    const s = this.server;
    this.server = null;
    if (s) await new Promise<void>((resolve) => s.close(() => resolve()));
  }
}
