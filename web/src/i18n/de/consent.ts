/** Cookies, consent and the experiments dialog. */
export const consent = {
  cookies: {
    title: 'Cookie-Einstellungen',
    text: 'Wir verwenden Cookies. Notwendige Cookies sind immer aktiv; alle anderen nur mit deiner Zustimmung.',
    rejectAll: 'Alle ablehnen',
    saveSelected: 'Auswahl speichern',
    acceptAll: 'Alle akzeptieren',
    categories: {
      required: 'Notwendig',
      functional: 'Funktional',
      preferences: 'Präferenzen',
      analytics: 'Analyse',
      marketing: 'Marketing',
    },
    services: {
      gravatar: 'Gravatar',
      unleash: 'Unleash',
      sentry: 'Sentry',
      design: 'Design',
    },
    designNeeded: 'Für den Design-Wechsel wird das Design-Cookie benötigt.',
    unleashNeeded: 'Für die Experimente wird das Unleash-Cookie benötigt.',
  },
  // Issue 20, first visit and details (kept together to ease merging).
  consent: {
    onlyRequired:
      'Diese Seite verwendet nur notwendige Cookies. Es gibt nichts, dem du zustimmen müsstest.',
    close: 'Schließen',
  },
  experiments: {
    title: 'Experimente',
    text: 'Hier kannst du experimentelle Funktionen ein- und ausschalten. Manche Änderungen werden erst nach einem Neuladen aktiv.',
    unavailable: 'Vom Server deaktiviert',
    close: 'Schließen',
    reload: 'Neu laden',
    names: {
      'url.frontend.experimentSwitch': 'Experimente-Schalter',
      'url.frontend.statistics': 'Statistiken',
      'url.frontend.account.wizard': 'Setup Wizard',
      'url.frontend.languageSwitch': 'Sprachauswahl',
    } as Record<string, string>,
  },
} as const;
