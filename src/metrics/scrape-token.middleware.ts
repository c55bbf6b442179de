import type { NextFunction, Request, Response } from 'express';
import { timingSafeEqual } from 'node:crypto';
import type { MetricsService } from './metrics.service';
import { noStore } from '../common/no-store';

export const PROMETHEUS_PATH = '/management/prometheus';

/** Constant-time comparison of an Authorization header with `Bearer {token}`. */
export function scrapeTokenMatches(header: string | undefined, token: string | undefined): boolean {
  if (!token || !header || !/^bearer\s/i.test(header)) return false;
  const given = Buffer.from(header.slice(7).trim());
  const want = Buffer.from(token);
  return given.length === want.length && timingSafeEqual(given, want);
}

/** The Prometheus answer (to the scrape token here, to admins by ManagementController): never stored. */
export async function sendMetrics(metrics: MetricsService, res: Response): Promise<void> {
  const { contentType, body } = await metrics.render();
  noStore(res);
  res.status(200).setHeader('Content-Type', contentType).send(body);
}

/**
 * Runs before the authentication pipeline (which treats every bearer token as an API key):
 * GET /management/prometheus with `Authorization: Bearer {METRICS_TOKEN}` is answered here,
 * without a session. Any other request, or a wrong token, goes on to the normal admin check.
 */
export function scrapeTokenMiddleware(metrics: MetricsService, token: string | undefined) {
  return (req: Request, res: Response, next: NextFunction): void => {
    if (!token || req.method !== 'GET' || req.path !== PROMETHEUS_PATH) return next();
    if (!scrapeTokenMatches(req.headers.authorization, token)) return next();
    sendMetrics(metrics, res).catch(next);
  };
}
