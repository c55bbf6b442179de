import {
  MAX_CONDITIONS,
  MAX_RULES,
  type ConditionType,
  type RedirectRule,
} from '@shared/redirect-rules';
import { ApiError } from '../api/errors';

/**
 * The redirect rules as the short's form edits them (components/rules/RulesEditor.tsx): drafts of
 * `{conditions, url}` with ids of their own (React keys that survive a move), the values as typed.
 * The shape, the types and the limits are src/shared/redirect-rules.ts; the server normalises
 * and checks the values (a refusal comes back as `fieldErrors.rules`, see `rulesProblemAt`).
 */

export interface ConditionDraft {
  id: number;
  type: ConditionType;
  value: string;
}

export interface RuleDraft {
  id: number;
  conditions: ConditionDraft[];
  url: string;
}

let lastId = 0;
const nextId = () => ++lastId;

/** A new condition: a device one until another type is chosen (its value still to pick). */
export function newCondition(type: ConditionType = 'device'): ConditionDraft {
  return { id: nextId(), type, value: '' };
}

/** A new rule: one empty condition and no target yet. */
export function newRule(): RuleDraft {
  return { id: nextId(), conditions: [newCondition()], url: '' };
}

/** The stored rules of a short as drafts (the edit form). */
export function rulesToDrafts(rules: readonly RedirectRule[] | undefined): RuleDraft[] {
  return (rules ?? []).map((r) => ({
    id: nextId(),
    url: r.url,
    conditions: r.conditions.map((c) => ({ id: nextId(), type: c.type, value: c.value })),
  }));
}

/** The drafts as the API takes them: in order, values and urls trimmed, no ids. */
export function draftsToRules(drafts: readonly RuleDraft[]): RedirectRule[] {
  return drafts.map((r) => ({
    conditions: r.conditions.map((c) => ({ type: c.type, value: c.value.trim() })),
    url: r.url.trim(),
  }));
}

/** Whether the drafts say the same as the stored rules (the edit form sends only a change). */
export function sameRules(
  drafts: readonly RuleDraft[],
  stored: readonly RedirectRule[] | undefined,
): boolean {
  return JSON.stringify(draftsToRules(drafts)) === JSON.stringify(stored ?? []);
}

export const canAddRule = (rules: readonly RuleDraft[]) => rules.length < MAX_RULES;
export const canAddCondition = (rule: RuleDraft) => rule.conditions.length < MAX_CONDITIONS;

/** The list with one rule moved by `by` places (-1: up, 1: down); out of range: unchanged. */
export function moveRule<T>(rules: readonly T[], index: number, by: -1 | 1): T[] {
  const to = index + by;
  if (index < 0 || index >= rules.length || to < 0 || to >= rules.length) return [...rules];
  const next = [...rules];
  [next[index], next[to]] = [next[to], next[index]];
  return next;
}

/** Where a refusal of the rules points: the rule and condition (from 0), when it names them. */
export interface RulesProblemAt {
  rule?: number;
  condition?: number;
}

/**
 * The rule (and condition) a refused save names: the problem's `fieldErrorPaths.rules`
 * (`['rules', 1, 'conditions', 0]`, `['rules', 2, 'url']`; none when the whole list is refused).
 * Its German text is the `errorKey`'s, this only says where to show it.
 */
export function rulesProblemAt(err: unknown): RulesProblemAt | undefined {
  if (!(err instanceof ApiError) || err.fieldErrors.rules === undefined) return undefined;
  const [, rule, part, condition] = err.fieldErrorPaths.rules ?? [];
  if (typeof rule !== 'number') return {};
  return part === 'conditions' && typeof condition === 'number' ? { rule, condition } : { rule };
}
