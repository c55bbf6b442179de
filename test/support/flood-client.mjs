// A flood of follows from its own process (its own event loop, as real clients are):
// `node flood-client.mjs URL N` opens N connections at once, sends one GET on each and prints
// one JSON line: how the connections ended ({"302": 1998, "error ECONNRESET": 2, ...}) and the
// milliseconds the whole flood took. Loopback only; every connection gives up after 30 s.
import { connect } from 'node:net';

const url = new URL(process.argv[2]);
const n = Number(process.argv[3]);
const UA =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const request =
  `GET ${url.pathname} HTTP/1.1\r\nHost: ${url.host}\r\nUser-Agent: ${UA}\r\n` +
  'Connection: close\r\n\r\n';

function one() {
  return new Promise((resolve) => {
    const socket = connect({ port: Number(url.port), host: url.hostname });
    let head = '';
    let ended = false;
    const end = (outcome) => {
      if (ended) return;
      ended = true;
      socket.destroy();
      resolve(outcome);
    };
    socket.setEncoding('latin1');
    socket.on('connect', () => socket.write(request));
    socket.on('data', (chunk) => {
      head += chunk;
      const status = /^HTTP\/1\.[01] (\d{3}) /.exec(head);
      if (status) end(status[1]);
    });
    socket.on('error', (err) => end(`error ${err.code ?? err.message}`));
    socket.on('close', () => end(head ? 'no status line' : 'closed without an answer'));
    socket.setTimeout(30_000, () => end('timeout'));
  });
}

const started = Date.now();
Promise.all(Array.from({ length: n }, one)).then((outcomes) => {
  const tally = {};
  for (const o of outcomes) tally[o] = (tally[o] ?? 0) + 1;
  process.stdout.write(`${JSON.stringify({ tally, ms: Date.now() - started })}\n`);
});
