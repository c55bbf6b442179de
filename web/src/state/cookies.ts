import { proxy } from 'valtio';
import {
  acceptAll,
  consentCookies,
  emptyConsent,
  parseCookieString,
  readConsent,
  rejectAll,
  type Consent,
  type Service,
} from '../lib/consent';

/**
 * Consent per category and service. The dialog shows on its own while no choice is stored and this
 * instance uses something that needs consent (`offered`); with nothing optional it never blocks.
 */
export const cookies = proxy({
  required: false,
  analytics: false,
  preferences: false,
  consent: emptyConsent() as Consent,
  showCookieDialog: false,
  /** The services this instance uses that need consent (lib/consent.ts, offeredServices). */
  offered: [] as Service[],
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

export function initCookies(offered: Service[] = []): void {
  cookies.offered = offered;
  const c = readConsent(parseCookieString(document.cookie));
  if (c) apply(c, true);
  cookies.showCookieDialog = !c && offered.length > 0;
}

/** A service that turns out to be used (a Gravatar picture): listed, and asked for if nothing is stored. */
export function offerService(s: Service): void {
  if (cookies.offered.includes(s)) return;
  cookies.offered = [...cookies.offered, s];
  if (!cookies.required) cookies.showCookieDialog = true;
}

/** Whether a service may run: consented, or not one this instance asks for (e.g. embedded flags). */
export function mayUse(s: Service): boolean {
  return !cookies.offered.includes(s) || cookies.consent.services[s];
}

export function saveConsent(c: Consent): void {
  for (const k of consentCookies(c)) writeCookie(k.name, k.value, k.days);
  apply(c, true);
  cookies.showCookieDialog = false;
}

export const consentActions = {
  acceptAll: () => saveConsent(acceptAll(cookies.offered)),
  rejectAll: () => saveConsent(rejectAll()),
  save: (c: Consent) => saveConsent(c),
  open: () => {
    cookies.showCookieDialog = true;
  },
  close: () => {
    if (cookies.required || cookies.offered.length === 0) cookies.showCookieDialog = false;
  },
};
