import type { Catalogue } from '../text';
import type { consent as de } from '../de/consent';

/** Cookies, consent and the experiments dialog. */
export const consent: Catalogue<typeof de> = {
  cookies: {
    title: 'Cookie settings',
    text: 'We use cookies. Necessary cookies are always active; all others only with your consent.',
    rejectAll: 'Reject all',
    saveSelected: 'Save selection',
    acceptAll: 'Accept all',
    categories: {
      required: 'Necessary',
      functional: 'Functional',
      preferences: 'Preferences',
      analytics: 'Analytics',
      marketing: 'Marketing',
    },
    services: {
      gravatar: 'Gravatar',
      unleash: 'Unleash',
      sentry: 'Sentry',
      design: 'Theme',
    },
    designNeeded: 'Switching the theme needs the theme cookie.',
    unleashNeeded: 'The experiments need the Unleash cookie.',
  },
  consent: {
    onlyRequired: 'This site uses necessary cookies only. There is nothing you need to agree to.',
    close: 'Close',
  },
  experiments: {
    title: 'Experiments',
    text: 'Here you can switch experimental features on and off. Some changes only take effect after a reload.',
    unavailable: 'Disabled by the server',
    close: 'Close',
    reload: 'Reload',
    names: {
      'url.frontend.experimentSwitch': 'Experiments switch',
      'url.frontend.statistics': 'Statistics',
      'url.frontend.account.wizard': 'Setup wizard',
      'url.frontend.languageSwitch': 'Language selection',
    },
  },
};
