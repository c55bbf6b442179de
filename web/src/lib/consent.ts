export type Category = 'required' | 'functional' | 'preferences' | 'analytics' | 'marketing';
export type Service = 'gravatar' | 'unleash' | 'sentry' | 'design';

export const CATEGORIES: Category[] = [
  'required',
  'functional',
  'preferences',
  'analytics',
  'marketing',
];
export const SERVICES: Service[] = ['gravatar', 'unleash', 'sentry', 'design'];

/** Which services a category switches along (switching a category sets its services). */
export const LINKED: Record<Category, Service[]> = {
  required: [],
  functional: ['gravatar', 'design'],
  preferences: [],
  analytics: ['unleash', 'sentry'],
  marketing: [],
};

export interface Consent {
  categories: Record<Category, boolean>;
  services: Record<Service, boolean>;
}

export function emptyConsent(): Consent {
  return {
    categories: {
      required: true,
      functional: false,
      preferences: false,
      analytics: false,
      marketing: false,
    },
    services: { gravatar: false, unleash: false, sentry: false, design: false },
  };
}

/**
 * Toggling a category also sets its linked services (of those offered, when given); required is
 * always on.
 */
export function toggleCategory(
  c: Consent,
  category: Category,
  on: boolean,
  offered: readonly Service[] = SERVICES,
): Consent {
  if (category === 'required') return c;
  const next: Consent = {
    categories: { ...c.categories, [category]: on },
    services: { ...c.services },
  };
  for (const s of LINKED[category]) if (offered.includes(s)) next.services[s] = on;
  return next;
}

export function toggleService(c: Consent, service: Service, on: boolean): Consent {
  return { categories: { ...c.categories }, services: { ...c.services, [service]: on } };
}

/**
 * Accept all: what is offered (its categories and services), or without a list every category and
 * service. Nothing that is not offered is consented to in advance.
 */
export function acceptAll(offered?: readonly Service[]): Consent {
  let c = emptyConsent();
  const categories = offered ? offeredCategories(offered) : CATEGORIES;
  for (const cat of categories) c = toggleCategory(c, cat, true, offered ?? SERVICES);
  return c;
}

/**
 * What this instance uses that needs consent: Sentry only with a browser DSN, Unleash only as an
 * external service (the embedded flags are this server's own), Gravatar only for a signed-in user
 * whose picture is there. The theme is a preference the visitor sets and needs none (the design
 * service is no longer asked for).
 */
export function offeredServices(uses: {
  sentryDsn: boolean;
  externalFlags: boolean;
  gravatar: boolean;
}): Service[] {
  return SERVICES.filter(
    (s) =>
      (s === 'sentry' && uses.sentryDsn) ||
      (s === 'unleash' && uses.externalFlags) ||
      (s === 'gravatar' && uses.gravatar),
  );
}

/** The categories the dialog lists: required, and those with an offered service. */
export function offeredCategories(offered: readonly Service[]): Category[] {
  return CATEGORIES.filter(
    (cat) => cat === 'required' || LINKED[cat].some((s) => offered.includes(s)),
  );
}

export function rejectAll(): Consent {
  return emptyConsent();
}

/**
 * The cookies written for a consent, in both schemes: sv_cookie_* (365 days) and {name}_consent per
 * category and service (30 days).
 */
export function consentCookies(c: Consent): { name: string; value: string; days: number }[] {
  const out: { name: string; value: string; days: number }[] = [
    { name: 'sv_cookie_required', value: 'true', days: 365 },
    { name: 'sv_cookie_analytics', value: String(c.categories.analytics), days: 365 },
    { name: 'sv_cookie_preferences', value: String(c.categories.preferences), days: 365 },
  ];
  for (const cat of CATEGORIES)
    out.push({ name: `${cat}_consent`, value: String(c.categories[cat]), days: 30 });
  for (const s of SERVICES)
    out.push({ name: `${s}_consent`, value: String(c.services[s]), days: 30 });
  return out;
}

/** Reads consent back from a cookie map; null when the required consent is absent (dialog shows). */
export function readConsent(cookies: Record<string, string>): Consent | null {
  if (cookies.sv_cookie_required !== 'true' && cookies.required_consent !== 'true') return null;
  const c = emptyConsent();
  for (const cat of CATEGORIES) {
    if (cat === 'required') continue;
    const v =
      cookies[`${cat}_consent`] ??
      (cat === 'analytics'
        ? cookies.sv_cookie_analytics
        : cat === 'preferences'
          ? cookies.sv_cookie_preferences
          : undefined);
    c.categories[cat] = v === 'true';
  }
  for (const s of SERVICES) {
    const v = cookies[`${s}_consent`];
    c.services[s] =
      v === undefined ? LINKED_BY_SERVICE(s).some((cat) => c.categories[cat]) : v === 'true';
  }
  return c;
}

function LINKED_BY_SERVICE(s: Service): Category[] {
  return CATEGORIES.filter((cat) => LINKED[cat].includes(s));
}

export function parseCookieString(str: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of str.split(';')) {
    const i = part.indexOf('=');
    if (i < 0) continue;
    const k = part.slice(0, i).trim();
    if (!k) continue;
    try {
      out[k] = decodeURIComponent(part.slice(i + 1).trim());
    } catch {
      out[k] = part.slice(i + 1).trim();
    }
  }
  return out;
}
