import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
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

/**
 * First value of a query parameter, for the routes that read the request itself (the follow, which
 * the fast entry also runs). Controllers declare their query as a DTO instead (common/query.ts).
 */
export function queryParam(req: Request, name: string): string | undefined {
  return firstValue((req.query as Record<string, unknown>)[name]);
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

export const CurrentOrigin = createParamDecorator(
  (_: unknown, ctx: ExecutionContext): RequestOrigin => {
    const req = ctx.switchToHttp().getRequest<Request>();
    return { host: req.headers.host, protocol: req.protocol, client: clientKey(req) };
  },
);
