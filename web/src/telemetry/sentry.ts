import { subscribe } from 'valtio';
import { runtimeConfig } from '../runtime-config';
import { cookies } from '../state/cookies';

/** Sentry sampling: traces 0.5, session replays 0.1, replays of sessions with an error 1. */
export const SENTRY_OPTIONS = {
  tracesSampleRate: 0.5,
  replaysSessionSampleRate: 0.1,
  replaysOnErrorSampleRate: 1,
};

type SentryModule = typeof import('@sentry/react');
let sentry: Promise<SentryModule> | null = null;

/** Loads and starts Sentry only with a DSN and after analytics (sentry) consent; never before. */
export function maybeStartSentry(): Promise<SentryModule> | null {
  const dsn = runtimeConfig.sentryDsn;
  if (!dsn || !cookies.consent.services.sentry || !cookies.required) return null;
  sentry ??= import('@sentry/react').then((Sentry) => {
    Sentry.init({
      dsn,
      release: `url-shorter@${runtimeConfig.version}`,
      integrations: [Sentry.browserTracingIntegration(), Sentry.replayIntegration()],
      ...SENTRY_OPTIONS,
    });
    return Sentry;
  });
  return sentry;
}

export function watchConsentForSentry(): void {
  void maybeStartSentry();
  subscribe(cookies, () => void maybeStartSentry());
}

/** The error screen's report button: to Sentry when it runs, else false. */
export async function reportError(err: unknown): Promise<boolean> {
  const s = maybeStartSentry();
  if (!s) return false;
  const Sentry = await s;
  Sentry.captureException(err);
  return true;
}
