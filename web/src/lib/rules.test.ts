import { describe, expect, it } from 'vitest';
import { ApiError } from '../api/errors';
import {
  canAddCondition,
  canAddRule,
  draftsToRules,
  moveRule,
  newCondition,
  newRule,
  rulesProblemAt,
  rulesToDrafts,
  sameRules,
} from './rules';
import { changesOf, createBody, emptyValues, fieldsOf } from './short-form';
import { shortFixture } from '../test-fixtures';

const stored = [
  { conditions: [{ type: 'os' as const, value: 'ios' }], url: 'https://apps.example/ios' },
  {
    conditions: [
      { type: 'device' as const, value: 'mobile' },
      { type: 'language' as const, value: 'en' },
    ],
    url: 'https://example.com/en',
  },
];

const short = shortFixture({ expiredUrl: null, rules: stored });

describe('the rules of the short form', () => {
  it('turns stored rules into drafts with ids of their own and back, trimmed', () => {
    const drafts = rulesToDrafts(stored);
    const ids = drafts.flatMap((r) => [r.id, ...r.conditions.map((c) => c.id)]);
    expect(new Set(ids).size).toBe(ids.length);
    expect(draftsToRules(drafts)).toEqual(stored);
    drafts[0].url = '  https://apps.example/ios ';
    drafts[0].conditions[0].value = ' ios ';
    expect(draftsToRules(drafts)).toEqual(stored);
    expect(sameRules(drafts, stored)).toBe(true);
    expect(sameRules([], undefined)).toBe(true);
    expect(rulesToDrafts(undefined)).toEqual([]);
  });

  it('moves a rule up and down; not past either end', () => {
    expect(moveRule(['a', 'b', 'c'], 2, -1)).toEqual(['a', 'c', 'b']);
    expect(moveRule(['a', 'b', 'c'], 0, 1)).toEqual(['b', 'a', 'c']);
    expect(moveRule(['a', 'b', 'c'], 0, -1)).toEqual(['a', 'b', 'c']);
    expect(moveRule(['a', 'b', 'c'], 2, 1)).toEqual(['a', 'b', 'c']);
  });

  it('allows at most 10 rules and 5 conditions per rule', () => {
    const nine = Array.from({ length: 9 }, newRule);
    expect(canAddRule(nine)).toBe(true);
    expect(canAddRule([...nine, newRule()])).toBe(false);
    const rule = newRule();
    expect(rule.conditions).toHaveLength(1);
    rule.conditions.push(...Array.from({ length: 3 }, () => newCondition('os')));
    expect(canAddCondition(rule)).toBe(true);
    rule.conditions.push(newCondition('query'));
    expect(canAddCondition(rule)).toBe(false);
  });

  it('creates with the rules (none: null) and edits only when they changed (all of them, [] removes)', () => {
    const values = { ...emptyValues(), url: 'https://example.com/a' };
    expect(createBody(values, null, true).rules).toBeNull();
    expect(createBody({ ...values, rules: rulesToDrafts(stored) }, null, true).rules).toEqual(
      stored,
    );
    expect(createBody({ ...values, rules: rulesToDrafts(stored) }, null, false)).not.toHaveProperty(
      'rules',
    );
    const f = fieldsOf(short);
    expect(changesOf(short, f, null)).toEqual({});
    expect(changesOf(short, { ...f, rules: moveRule(f.rules, 1, -1) }, null)).toEqual({
      rules: [stored[1], stored[0]],
    });
    expect(changesOf(short, { ...f, rules: [] }, null)).toEqual({ rules: [] });
  });

  it('finds the rule and condition a refusal names', () => {
    const refusal = (message: string) =>
      new ApiError(400, {
        errorKey: 'validation_failed',
        fieldErrors: { rules: message },
        fieldErrorKeys: { rules: 'rule_condition_invalid' },
      });
    expect(rulesProblemAt(refusal('rule 2, condition 3: os must be one of …'))).toEqual({
      rule: 1,
      condition: 2,
    });
    expect(rulesProblemAt(refusal('rule 3: url is blacklisted'))).toEqual({ rule: 2 });
    expect(rulesProblemAt(refusal('at most 10 rules'))).toEqual({});
    expect(rulesProblemAt(new ApiError(400, { fieldErrors: { url: 'x' } }))).toBeUndefined();
    expect(rulesProblemAt(new Error('x'))).toBeUndefined();
  });
});
