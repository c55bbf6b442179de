import { request as httpRequest } from 'node:http';
import { BROWSER_UA } from './user-agent';

export interface HostAnswer {
  status: number;
  location: string | undefined;
  body: string;
}

/**
 * GET `path` from the app at `base` with another `Host` header, as a browser following a link on an
 * own domain would (fetch() may not set Host). Sends a browser's user agent; nothing is followed.
 */
export function getOnHost(base: string, host: string, path: string): Promise<HostAnswer> {
  return new Promise((resolve, reject) => {
    const u = new URL(base);
    const req = httpRequest(
      { host: u.hostname, port: u.port, path, headers: { host, 'user-agent': BROWSER_UA } },
      (res) => {
        let body = '';
        res.on('data', (d: Buffer) => (body += d.toString()));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, location: res.headers.location, body }),
        );
      },
    );
    req.on('error', reject);
    req.end();
  });
}
