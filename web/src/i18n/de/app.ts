/** The frame of every page: title, navigation, footer, errors, toasts, tables, figures. */
export const app = {
  app: {
    title: 'URL-Shorter',
    pageTitle: 'URL-Shorter: Teile deine Links einfach und schnell',
    headline: 'Teile deine Links einfach und schnell',
    subtitle: 'Kürze lange Links, schütze sie mit einem Passwort und teile sie mit wem du willst.',
  },
  nav: {
    start: 'Start',
    follow: 'Link verfolgen',
    ownShorts: 'Eigene Shorts',
    account: 'Account',
    admin: 'Admin',
    logout: 'Abmelden',
    login: 'Anmelden',
    menu: 'Menü öffnen',
    main: 'Hauptnavigation',
    userMenu: 'Benutzermenü',
  },
  footer: {
    version: 'Version {version}',
    cookies: 'Cookies verwalten',
    theme: 'Design wechseln',
    themeDark: 'Dunkles Design',
    themeLight: 'Helles Design',
    themeNeedsCookie: 'Für den Design-Wechsel wird das Design-Cookie benötigt.',
    experiments: 'Experimente',
    experimentsNeedCookie: 'Für die Experimente wird das Unleash-Cookie benötigt.',
    language: 'Sprache',
    german: 'Deutsch',
    english: 'English',
    services: 'Weitere Dienste',
    imprint: 'Impressum',
    privacy: 'Datenschutz',
    terms: 'Nutzungsbedingungen',
    contact: 'Kontakt',
    chat: 'Chat Community',
    copyright: '© {from}–{to} URL-Shorter',
  },
  error: {
    title: 'Interner Fehler',
    intro: 'Es ist ein unerwarteter Fehler aufgetreten.',
    stack: 'Stack',
    toStart: 'Zur Startseite',
    report: 'Fehler melden',
    unknown: 'Unbekannter Fehler',
    rateLimited: 'Zu viele Anfragen. Du kannst es {when} wieder versuchen.',
    /** A field's error whose text does not name the field itself. */
    field: '{field}: {text}',
    retry: {
      oneSecond: 'in einer Sekunde',
      seconds: 'in {n} Sekunden',
      oneMinute: 'in einer Minute',
      minutes: 'in {n} Minuten',
      at: 'um {time} Uhr',
      atDay: 'am {date} um {time} Uhr',
    },
  },
  auth: {
    mustBeLoggedIn: 'Du musst eingeloggt sein um diese Seite zu sehen.',
  },
  /** Page titles per route (lib/titles.ts). */
  titles: {
    page: '{title} – URL-Shorter',
    info: 'Short {code}',
    tagStatistics: 'Statistik des Tags {tag}',
  },
  toasts: {
    maintenance:
      'Es finden gerade Wartungsarbeiten statt. Die Seite ist daher nicht vollständig verfügbar. Bei Fragen und Problemen wende dich bitte an den Support.',
    shutdown:
      'Der Dienst ist zur Zeit nicht verfügbar. Bitte versuche es später noch einmal. Bei Fragen und Problemen wende dich bitte an den Support.',
    close: 'Schließen',
  },
  table: {
    pageSize: 'Einträge pro Seite',
    pagination: 'Seitennavigation',
    previous: 'Vorherige Seite',
    next: 'Nächste Seite',
    page: 'Seite {page}',
    pageOf: 'Seite {page} von {pages}',
    pageJump: 'Gehe zu Seite',
    pageJumpGo: 'Los',
    pageJumpInvalid: 'Bitte eine Seite von 1 bis {count} eingeben.',
    sortBy: 'Nach {column} sortieren',
  },
  /** The start page's live figures (HOME_FIGURES=live); {n} is '1.000+' (a count under 10 has no card). */
  figures: {
    links: '{n} Links',
    visits: '{n} Aufrufe',
    users: '{n} Nutzer',
  },
} as const;
