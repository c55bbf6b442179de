// The benchmark's baseline: a bare node:http server answering GET /s/{code} with the same 302
// (Location, Cache-Control: no-store, Referrer-Policy: no-referrer) from an in-memory Map.
import { createServer } from 'node:http';

const shorts = new Map([
  [process.env.BARE_CODE ?? 'bareCode', process.env.BARE_URL ?? 'https://example.com/'],
]);

const server = createServer((req, res) => {
  const m = req.method === 'GET' ? /^\/s\/([^/?]+)/.exec(req.url ?? '') : null;
  const url = m ? shorts.get(decodeURIComponent(m[1])) : undefined;
  res.statusCode = 302;
  res.setHeader('Cache-Control', 'no-store');
  if (url) {
    res.setHeader('Referrer-Policy', 'no-referrer');
    res.setHeader('Location', url);
  } else {
    res.setHeader('Location', m ? `/s/${m[1]}/not-found` : '/');
  }
  res.end();
});

server.listen(Number(process.env.PORT ?? 0), '127.0.0.1');
process.on('SIGTERM', () => server.close(() => process.exit(0)));
process.on('SIGUSR2', () => server.close(() => process.exit(0)));
