import { api, unwrap, type Schemas } from '../api/client';

export type ReportType = Schemas['CreateReportDto']['reason'];

/** SPEC §9 report types (the order of the select). */
export const REPORT_TYPES: readonly ReportType[] = [
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
];

/** POST /api/code/{code}/report. */
export async function sendReport(code: string, body: Schemas['CreateReportDto']): Promise<void> {
  await unwrap(api.POST('/api/code/{code}/report', { params: { path: { code } }, body }));
}
