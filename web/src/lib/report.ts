import { BACKEND_TIMEOUT_MS } from '../api/client';

/** SPEC §9 report types. */
export const REPORT_TYPES = [
  'CHILD_ABUSE',
  'HARMFUL',
  'HATEFUL',
  'ILLEGAL',
  'MOBBING',
  'SEXUAL_CONTENT',
  'SPAM',
  'TERRORISM',
  'VIOLENCE',
  'OTHER',
] as const;
export type ReportType = (typeof REPORT_TYPES)[number];

/**
 * POST /api/code/{code}/report. The route is not in openapi/openapi.json yet (the report
 * module is not registered); switch to the typed client once `reportShort` is generated.
 */
export async function sendReport(code: string, body: { reason: ReportType; description: string }): Promise<void> {
  const res = await fetch(`/api/code/${encodeURIComponent(code)}/report`, {
    method: 'POST',
    credentials: 'include',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(BACKEND_TIMEOUT_MS),
  });
  if (!res.ok) {
    const err: unknown = await res.json().catch(() => ({}));
    throw Object.assign({ status: res.status }, err);
  }
}
