// A worker thread of QrRenderPool: renders QR-code PNGs with `qrcode` off the main event loop, one
// job at a time. Plain JavaScript so that Node loads it as it is, from src/ under Vitest and from
// dist/ in the built app (nest-cli.json copies it there).
import { setPriority } from 'node:os';
import { parentPort } from 'node:worker_threads';
import QRCode from 'qrcode';

// Renders are background work. On Linux this lowers the priority of this thread only (elsewhere it
// would lower the whole process: not there), so that on a busy CPU the main event loop runs first.
if (process.platform === 'linux') setPriority(10);

parentPort.on('message', ({ text, options }) => {
  QRCode.toBuffer(text, options).then(
    (buffer) => {
      // Its own ArrayBuffer (a small Buffer may share Node's pool), moved to the main thread.
      const png = new Uint8Array(buffer);
      parentPort.postMessage({ png }, [png.buffer]);
    },
    (err) => parentPort.postMessage({ error: String(err?.message ?? err) }),
  );
});
