import { api, unwrap, type Schemas } from '../client';

/** POST /api/code/{code}/report (a short on an own domain: `domain` names it). */
export async function sendReport(
  code: string,
  body: Schemas['CreateReportDto'],
  domain?: string | null,
): Promise<void> {
  const query = domain ? { domain } : {};
  await unwrap(api.POST('/api/code/{code}/report', { params: { path: { code }, query }, body }));
}
