import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import { clientAddress, type TrustFn } from './client-address';

/** First value of a query parameter (repeated parameters use the first). */
export function queryParam(req: Request, name: string): string | undefined {
  const v = (req.query as Record<string, unknown>)[name];
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

export const CurrentOrigin = createParamDecorator(
  (_: unknown, ctx: ExecutionContext): RequestOrigin => {
    const req = ctx.switchToHttp().getRequest<Request>();
    return { host: req.headers.host, protocol: req.protocol, client: clientKey(req) };
  },
);
