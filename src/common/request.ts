import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';
import { clientAddress, type TrustFn } from './client-address';

/**
 * The first value of a query parameter: `?a=1&a=2` gives '1'. Anything but text (an object of the
 * `extended` parser's `a[b]=c`) counts as missing.
 */
export function firstValue(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  if (Array.isArray(v) && typeof v[0] === 'string') return v[0];
  return undefined;
}

/** The key that identifies a client for rate limits: its address as TRUST_PROXY allows us to see it. */
export function clientKey(req: Request): string {
  return clientAddress(req, req.app.get('trust proxy fn') as TrustFn);
}

/**
 * Where a request came from and went to: the host it was addressed to (`Host`) and its protocol
 * (to recognise links back to us), and the client address (rate limits of anonymous callers).
 */
export interface RequestOrigin {
  host?: string;
  protocol: string;
  client: string;
}

/**
 * The protocol of a request as Express's `req.protocol` computes it: `https` on a TLS socket, else
 * `http`, unless the socket's peer is a trusted proxy, whose first `X-Forwarded-Proto` entry counts.
 */
export function requestProtocol(req: IncomingMessage, trust: TrustFn): string {
  const proto = (req.socket as TLSSocket).encrypted ? 'https' : 'http';
  if (!trust(req.socket.remoteAddress as string, 0)) return proto;
  const forwarded = req.headers['x-forwarded-proto'];
  const header = (Array.isArray(forwarded) ? forwarded[0] : forwarded) || proto;
  const index = header.indexOf(',');
  return index !== -1 ? header.substring(0, index).trim() : header.trim();
}

export const CurrentOrigin = createParamDecorator(
  (_: unknown, ctx: ExecutionContext): RequestOrigin => {
    const req = ctx.switchToHttp().getRequest<Request>();
    return { host: req.headers.host, protocol: req.protocol, client: clientKey(req) };
  },
);
