import type { ValueTransformer } from 'typeorm';
import type { RedirectRule } from '../shared/redirect-rules';

/**
 * The `rules` column as JSON text: a short's checked redirect rules, null (or an empty list) as
 * NULL. A text that is not a list of rules (written by hand) reads as no rules: a follow must never
 * fail on it.
 */
export function rulesFromColumn(raw: unknown): RedirectRule[] | null {
  if (raw === null || raw === undefined || raw === '') return null;
  try {
    const parsed: unknown = typeof raw === 'string' ? JSON.parse(raw) : raw;
    return Array.isArray(parsed) && parsed.length > 0 ? (parsed as RedirectRule[]) : null;
  } catch {
    return null;
  }
}

export function rulesToColumn(rules: RedirectRule[] | null | undefined): string | null | undefined {
  if (rules === undefined) return undefined;
  return rules && rules.length > 0 ? JSON.stringify(rules) : null;
}

export const rulesTransformer: ValueTransformer = {
  to: rulesToColumn,
  from: rulesFromColumn,
};
