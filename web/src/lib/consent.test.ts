import { describe, expect, it } from 'vitest';
import {
  acceptAll,
  consentCookies,
  emptyConsent,
  offeredCategories,
  offeredServices,
  parseCookieString,
  readConsent,
  rejectAll,
  toggleCategory,
  toggleService,
} from './consent';

describe('consent toggles', () => {
  it('analytics also sets unleash and sentry', () => {
    const c = toggleCategory(emptyConsent(), 'analytics', true);
    expect(c.categories.analytics).toBe(true);
    expect(c.services).toEqual({ gravatar: false, unleash: true, sentry: true, design: false });
    expect(toggleCategory(c, 'analytics', false).services.sentry).toBe(false);
  });

  it('functional also sets gravatar and design', () => {
    const c = toggleCategory(emptyConsent(), 'functional', true);
    expect(c.services).toEqual({ gravatar: true, unleash: false, sentry: false, design: true });
  });

  it('required is always on', () => {
    expect(toggleCategory(emptyConsent(), 'required', false).categories.required).toBe(true);
    expect(rejectAll().categories.required).toBe(true);
  });

  it('a single service can be switched alone', () => {
    const c = toggleService(toggleCategory(emptyConsent(), 'functional', true), 'gravatar', false);
    expect(c.services.gravatar).toBe(false);
    expect(c.services.design).toBe(true);
  });

  it('accept all turns on every category and service', () => {
    const c = acceptAll();
    expect(Object.values(c.categories).every(Boolean)).toBe(true);
    expect(Object.values(c.services).every(Boolean)).toBe(true);
  });

  it('accept all with what is offered consents to nothing else', () => {
    const c = acceptAll(['sentry']);
    expect(c.categories).toEqual({
      required: true,
      functional: false,
      preferences: false,
      analytics: true,
      marketing: false,
    });
    expect(c.services).toEqual({ gravatar: false, unleash: false, sentry: true, design: false });
    expect(acceptAll([]).services).toEqual(emptyConsent().services);
  });

  it('a category switches only the offered services along', () => {
    const c = toggleCategory(emptyConsent(), 'analytics', true, ['sentry']);
    expect(c.services).toEqual({ gravatar: false, unleash: false, sentry: true, design: false });
  });

  it('offers only what the instance uses; the theme (design) never', () => {
    expect(offeredServices({ sentryDsn: false, externalFlags: false, gravatar: false })).toEqual(
      [],
    );
    expect(offeredServices({ sentryDsn: true, externalFlags: false, gravatar: false })).toEqual([
      'sentry',
    ]);
    expect(offeredServices({ sentryDsn: true, externalFlags: true, gravatar: true })).toEqual([
      'gravatar',
      'unleash',
      'sentry',
    ]);
    expect(offeredCategories([])).toEqual(['required']);
    expect(offeredCategories(['sentry'])).toEqual(['required', 'analytics']);
    expect(offeredCategories(['gravatar', 'unleash'])).toEqual([
      'required',
      'functional',
      'analytics',
    ]);
  });

  it('writes both cookie schemes (365 and 30 days) and reads them back', () => {
    const c = toggleCategory(emptyConsent(), 'analytics', true);
    const list = consentCookies(c);
    expect(list).toContainEqual({ name: 'sv_cookie_required', value: 'true', days: 365 });
    expect(list).toContainEqual({ name: 'sv_cookie_analytics', value: 'true', days: 365 });
    expect(list).toContainEqual({ name: 'sv_cookie_preferences', value: 'false', days: 365 });
    expect(list).toContainEqual({ name: 'analytics_consent', value: 'true', days: 30 });
    expect(list).toContainEqual({ name: 'sentry_consent', value: 'true', days: 30 });
    const jar = parseCookieString(list.map((x) => `${x.name}=${x.value}`).join('; '));
    expect(readConsent(jar)).toEqual(c);
  });

  it('without the required consent the dialog must show (null)', () => {
    expect(readConsent({})).toBeNull();
    expect(readConsent({ sv_cookie_analytics: 'true' })).toBeNull();
    expect(
      readConsent({ sv_cookie_required: 'true', sv_cookie_analytics: 'true' })?.services.sentry,
    ).toBe(true);
  });
});
