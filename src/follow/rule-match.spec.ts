import { describe, expect, it } from 'vitest';
import type { RedirectRule, RuleCondition } from '../shared/redirect-rules';
import { acceptedLanguages, agentTraits, chooseRule, type RuleRequest } from './rule-match';

const UA = {
  iphone:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  ipad: 'Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  android:
    'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36',
  windows:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
  mac: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15',
  linux: 'Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:127.0) Gecko/20100101 Firefox/127.0',
};

const req = (over: Partial<RuleRequest> = {}): RuleRequest => ({
  userAgent: UA.windows,
  acceptLanguage: undefined,
  query: undefined,
  country: () => undefined,
  ...over,
});
const r = (url: string, ...conditions: Array<[RuleCondition['type'], string]>): RedirectRule => ({
  url,
  conditions: conditions.map(([type, value]) => ({ type, value })),
});

describe('the redirect rules a follow takes', () => {
  it('reads device and OS families of user agents', () => {
    expect(agentTraits(UA.iphone)).toEqual({ device: 'mobile', os: 'ios' });
    expect(agentTraits(UA.ipad)).toEqual({ device: 'tablet', os: 'ios' });
    expect(agentTraits(UA.android)).toEqual({ device: 'mobile', os: 'android' });
    expect(agentTraits(UA.windows)).toEqual({ device: 'desktop', os: 'windows' });
    expect(agentTraits(UA.mac)).toEqual({ device: 'desktop', os: 'macos' });
    expect(agentTraits(UA.linux)).toEqual({ device: 'desktop', os: 'linux' });
    expect(agentTraits('')).toEqual({ device: 'other', os: 'other' });
  });

  it('the first rule whose conditions all match; -1 when none does', () => {
    const rules = [
      r('https://a/', ['device', 'mobile'], ['os', 'android']),
      r('https://b/', ['device', 'mobile']),
      r('https://c/', ['os', 'macos']),
    ];
    expect(chooseRule(rules, req({ userAgent: UA.android }))).toBe(0);
    expect(chooseRule(rules, req({ userAgent: UA.iphone }))).toBe(1);
    expect(chooseRule(rules, req({ userAgent: UA.mac }))).toBe(2);
    expect(chooseRule(rules, req({ userAgent: UA.windows }))).toBe(-1);
    expect(chooseRule([], req())).toBe(-1);
  });

  it('reads Accept-Language by preference: q-values, ties in order, q=0 never', () => {
    expect(acceptedLanguages('de-DE,de;q=0.9,en;q=0.8')).toEqual(['de-de', 'de', 'en']);
    expect(acceptedLanguages('en;q=0.5, fr, de;q=0.5, *;q=0.1, it;q=0')).toEqual([
      'fr',
      'en',
      'de',
    ]);
    expect(acceptedLanguages(undefined)).toEqual([]);
    expect(acceptedLanguages('???, ;q=1')).toEqual([]);
  });

  it('a language condition matches by prefix the most preferred language the rules offer', () => {
    const rules = [r('https://en/', ['language', 'en']), r('https://de/', ['language', 'de'])];
    const lang = (acceptLanguage: string) => chooseRule(rules, req({ acceptLanguage }));
    expect(chooseRule(rules, req())).toBe(-1); // no Accept-Language: no language condition matches
    expect(lang('de-AT,de;q=0.9,en;q=0.5')).toBe(1); // German first, although `en` comes first
    expect(lang('fr, en-US;q=0.9')).toBe(0); // French is not offered: English
    expect(lang('fr')).toBe(-1);
    expect(lang('en;q=0, de;q=0.95')).toBe(1);
    expect(
      chooseRule([r('https://gb/', ['language', 'en-GB'])], req({ acceptLanguage: 'en' })),
    ).toBe(-1);
    expect(
      chooseRule([r('https://gb/', ['language', 'en-GB'])], req({ acceptLanguage: 'en-gb' })),
    ).toBe(0);
  });

  it('a language condition considers only languages accepted with q >= 0.9 (as Shlink does)', () => {
    const de = [r('https://de/', ['language', 'de'])];
    const lang = (acceptLanguage: string) => chooseRule(de, req({ acceptLanguage }));
    // Chrome's default for an English speaker who added German as a second language.
    expect(lang('en-US,en;q=0.9,de;q=0.8')).toBe(-1);
    expect(lang('fr, en-US;q=0.8, de;q=0.5')).toBe(-1);
    expect(lang('en;q=0, de;q=0.1')).toBe(-1);
    expect(lang('en-US,de;q=0.9')).toBe(0); // exactly 0.9 counts
    expect(lang('de;q=0.95')).toBe(0);
    expect(lang('de')).toBe(0);
    // Among the languages that count, the choice is as before: the most preferred one offered.
    const both = [r('https://en/', ['language', 'en']), r('https://de/', ['language', 'de'])];
    expect(chooseRule(both, req({ acceptLanguage: 'fr,de;q=0.9,en;q=0.8' }))).toBe(1);
    expect(chooseRule(both, req({ acceptLanguage: 'fr,en-GB;q=0.9,de;q=0.9' }))).toBe(0);
    expect(acceptedLanguages('en-US,en;q=0.9,de;q=0.8', 0.9)).toEqual(['en-us', 'en']);
  });

  it('country and query pairs; the country is asked once and only when a rule needs it', () => {
    let asked = 0;
    const country = () => {
      asked++;
      return 'AT';
    };
    const rules = [
      r('https://q/', ['query', 'src=mail']),
      r('https://de/', ['country', 'DE']),
      r('https://at/', ['country', 'AT']),
    ];
    expect(chooseRule(rules, req({ query: new URLSearchParams('a=1&src=mail') }))).toBe(0);
    expect(asked).toBe(0);
    expect(chooseRule(rules, req({ query: new URLSearchParams('src=web'), country }))).toBe(2);
    expect(asked).toBe(1);
    expect(
      chooseRule(
        [r('https://q/', ['query', 'q=a b'])],
        req({ query: new URLSearchParams('q=a+b') }),
      ),
    ).toBe(0);
    expect(
      chooseRule(
        [r('https://q/', ['query', 'flag='])],
        req({ query: new URLSearchParams('flag') }),
      ),
    ).toBe(0);
  });
});
