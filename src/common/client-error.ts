import { STATUS_CODES, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { ErrorKey } from '../shared/error-keys';
import { PROBLEM_CONTENT_TYPE, problem } from './problem';
import { NO_STORE } from './no-store';

const DETAILS: Record<number, [string, ErrorKey]> = {
  400: ['The request could not be parsed', 'request_malformed'],
  408: ['The request took too long to arrive', 'request_timeout'],
  431: ['The request line or headers are too large', 'request_header_fields_too_large'],
};

/** The status for an HTTP parser error: 431 for oversized request lines and headers, 408, else 400. */
export function clientErrorStatus(code: string | undefined): number {
  if (code === 'HPE_HEADER_OVERFLOW') return 431;
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return 408;
  return 400;
}

/**
 * Requests Node's HTTP parser refuses (an oversized request line or headers, a malformed request)
 * never reach Express; without this handler Node answers them with a bare status line. They get the
 * same problem+json as every other error, then the connection is closed.
 */
export function answerClientErrors(server: Server): void {
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    if (err.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const status = clientErrorStatus(err.code);
    const title = STATUS_CODES[status] ?? 'Bad Request';
    const [detail, errorKey] = DETAILS[status];
    const body = JSON.stringify(problem(status, title, detail, '/', { errorKey }));
    socket.end(
      `HTTP/1.1 ${status} ${title}\r\n` +
        `Content-Type: ${PROBLEM_CONTENT_TYPE}\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        `${NO_STORE.join(': ')}\r\n` +
        'X-Content-Type-Options: nosniff\r\n' +
        'Connection: close\r\n\r\n' +
        body,
    );
  });
}
