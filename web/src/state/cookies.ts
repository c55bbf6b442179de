import { proxy } from 'valtio';
import {
  acceptAll,
  consentCookies,
  emptyConsent,
  parseCookieString,
  readConsent,
  rejectAll,
  type Consent,
} from '../lib/consent';

/** Consent per category and service; the dialog shows while the required consent is absent. */
export const cookies = proxy({
  required: false,
  analytics: false,
  preferences: false,
  consent: emptyConsent() as Consent,
  showCookieDialog: false,
});

function writeCookie(name: string, value: string, days: number): void {
  const expires = new Date(Date.now() + days * 86400_000).toUTCString();
  document.cookie = `${name}=${encodeURIComponent(value)}; expires=${expires}; path=/; SameSite=Lax`;
}

function apply(c: Consent, given: boolean): void {
  cookies.consent = c;
  cookies.required = given;
  cookies.analytics = c.categories.analytics;
  cookies.preferences = c.categories.preferences;
}

export function initCookies(): void {
  const c = readConsent(parseCookieString(document.cookie));
  if (c) apply(c, true);
  cookies.showCookieDialog = !c;
}

export function saveConsent(c: Consent): void {
  for (const k of consentCookies(c)) writeCookie(k.name, k.value, k.days);
  apply(c, true);
  cookies.showCookieDialog = false;
}

export const consentActions = {
  acceptAll: () => saveConsent(acceptAll()),
  rejectAll: () => saveConsent(rejectAll()),
  save: (c: Consent) => saveConsent(c),
  open: () => {
    cookies.showCookieDialog = true;
  },
  close: () => {
    if (cookies.required) cookies.showCookieDialog = false;
  },
};
