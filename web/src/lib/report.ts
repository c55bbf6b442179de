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

/** SPEC §5: a type and a description are required (CONTRACT: description at most 2000 characters). */
export const REPORT_DESCRIPTION_MAX = 2000;

export interface ReportErrors {
  reason?: string;
  description?: string;
}

export function validateReport(
  reason: string,
  description: string,
  messages: { typeRequired: string; descriptionRequired: string },
): ReportErrors {
  const errors: ReportErrors = {};
  if (!(REPORT_TYPES as readonly string[]).includes(reason)) errors.reason = messages.typeRequired;
  if (!description.trim()) errors.description = messages.descriptionRequired;
  return errors;
}
