import { describe, expect, it } from 'vitest';
import { FLAGS, isFlagOn, parseLocalFlags } from './flag-rule';

describe('flag rule', () => {
  const server = {
    [FLAGS.accountWizard]: true,
    [FLAGS.languageSwitch]: false,
    [FLAGS.maintenance]: true,
  };

  it('is on only when the server flag and the local switch are on', () => {
    expect(isFlagOn(FLAGS.accountWizard, server, [FLAGS.accountWizard])).toBe(true);
    expect(isFlagOn(FLAGS.accountWizard, server, [])).toBe(false);
    expect(isFlagOn(FLAGS.languageSwitch, server, [FLAGS.languageSwitch])).toBe(false);
    expect(isFlagOn(FLAGS.statistics, server, [FLAGS.statistics])).toBe(false);
  });

  it('a forced override replaces the local switch but never the server flag', () => {
    expect(isFlagOn(FLAGS.accountWizard, server, [], true)).toBe(true);
    expect(isFlagOn(FLAGS.accountWizard, server, [FLAGS.accountWizard], false)).toBe(false);
    expect(isFlagOn(FLAGS.languageSwitch, server, [], true)).toBe(false);
  });

  it('statistics follow the server alone: no opt-in (which needed a cookie) and no opt-out', () => {
    expect(isFlagOn(FLAGS.statistics, { [FLAGS.statistics]: true }, [])).toBe(true);
    expect(isFlagOn(FLAGS.statistics, { [FLAGS.statistics]: false }, [FLAGS.statistics])).toBe(
      false,
    );
  });

  it('the language switch follows the server alone: a visitor who reads no German needs no opt-in', () => {
    expect(isFlagOn(FLAGS.languageSwitch, { [FLAGS.languageSwitch]: true }, [])).toBe(true);
    expect(isFlagOn(FLAGS.languageSwitch, server, [FLAGS.languageSwitch])).toBe(false);
  });

  it('the experiment switch is always on', () => {
    expect(isFlagOn(FLAGS.experimentSwitch, {}, [])).toBe(true);
    expect(isFlagOn(FLAGS.experimentSwitch, { [FLAGS.experimentSwitch]: false }, [], false)).toBe(
      true,
    );
  });

  it('operator flags (maintenance, shutdown) follow the server alone', () => {
    expect(isFlagOn(FLAGS.maintenance, server, [])).toBe(true);
    expect(isFlagOn(FLAGS.shutdown, server, [FLAGS.shutdown])).toBe(false);
  });

  it('reads the stored list of switched-on flags', () => {
    expect(parseLocalFlags('["a","b",3]')).toEqual(['a', 'b']);
    expect(parseLocalFlags(null)).toEqual([]);
    expect(parseLocalFlags('{oops')).toEqual([]);
    expect(parseLocalFlags('{"a":true}')).toEqual([]);
  });
});
