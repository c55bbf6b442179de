import type { Schemas } from '../api/client';

export type ReportType = Schemas['CreateReportDto']['reason'];

/** The ten report reasons the server accepts, in the order of the select. */
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

/** A reason and a description are required; the server takes at most 2000 characters (docs/api.md). */
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
