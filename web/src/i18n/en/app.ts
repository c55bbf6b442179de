import type { Catalogue } from '../text';
import type { app as de } from '../de/app';

/** The frame of every page: title, navigation, footer, errors, toasts, tables, figures. */
export const app: Catalogue<typeof de> = {
  app: {
    title: 'URL-Shorter',
    pageTitle: 'URL-Shorter: Share your links simply and quickly',
    headline: 'Share your links simply and quickly',
    subtitle:
      'Shorten long links, protect them with a password and share them with whoever you like.',
  },
  nav: {
    start: 'Home',
    follow: 'Follow a link',
    ownShorts: 'My shorts',
    account: 'Account',
    admin: 'Admin',
    logout: 'Log out',
    login: 'Log in',
    menu: 'Open menu',
    main: 'Main navigation',
    userMenu: 'User menu',
  },
  footer: {
    version: 'Version {version}',
    cookies: 'Manage cookies',
    theme: 'Switch theme',
    themeDark: 'Dark theme',
    themeLight: 'Light theme',
    themeNeedsCookie: 'Switching the theme needs the theme cookie.',
    experiments: 'Experiments',
    experimentsNeedCookie: 'The experiments need the Unleash cookie.',
    language: 'Language',
    german: 'Deutsch',
    english: 'English',
    services: 'More services',
    imprint: 'Legal notice',
    privacy: 'Privacy',
    terms: 'Terms of use',
    contact: 'Contact',
    chat: 'Chat community',
    copyright: '© {from}–{to} URL-Shorter',
  },
  error: {
    title: 'Internal error',
    intro: 'An unexpected error occurred.',
    stack: 'Stack',
    toStart: 'To the home page',
    report: 'Report the error',
    unknown: 'Unknown error',
    rateLimited: 'Too many requests. You can try again {when}.',
    field: '{field}: {text}',
    retry: {
      oneSecond: 'in one second',
      seconds: 'in {n} seconds',
      oneMinute: 'in one minute',
      minutes: 'in {n} minutes',
      at: 'at {time}',
      atDay: 'on {date} at {time}',
    },
  },
  auth: {
    mustBeLoggedIn: 'You must be logged in to see this page.',
  },
  titles: {
    page: '{title} – URL-Shorter',
    info: 'Short {code}',
    tagStatistics: 'Statistics of the tag {tag}',
  },
  toasts: {
    maintenance:
      'Maintenance is under way, so the site is not fully available. If you have questions or problems, please contact support.',
    shutdown:
      'The service is currently unavailable. Please try again later. If you have questions or problems, please contact support.',
    close: 'Close',
  },
  table: {
    pageSize: 'Entries per page',
    pagination: 'Page navigation',
    previous: 'Previous page',
    next: 'Next page',
    page: 'Page {page}',
    pageOf: 'Page {page} of {pages}',
    pageJump: 'Go to page',
    pageJumpGo: 'Go',
    pageJumpInvalid: 'Please enter a page from 1 to {count}.',
    sortBy: 'Sort by {column}',
  },
  figures: {
    links: '{n} links',
    visits: '{n} visits',
    users: '{n} users',
  },
};
