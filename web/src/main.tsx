import 'bootstrap/dist/css/bootstrap.min.css';
import './styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { NetworkError } from './api/client';
import { App } from './App';
import { goOffline } from './lib/offline';
import { isGravatar } from './lib/avatar';
import { offeredServices } from './lib/consent';
import { runtimeConfig } from './runtime-config';
import { auth, fetchAccount } from './state/auth';
import { initCookies, offerService } from './state/cookies';
import { flags, startFlags } from './state/flags';
import { startLanguage } from './state/language';
import { initTheme } from './state/theme';
import { watchConsentForSentry } from './telemetry/sentry';

initTheme();
startLanguage(flags);
// Only what this instance uses is asked for; with nothing optional no dialog blocks the first visit.
initCookies(
  offeredServices({
    sentryDsn: Boolean(runtimeConfig.sentryDsn),
    externalFlags: !runtimeConfig.flags.embedded,
    gravatar: false,
  }),
);
watchConsentForSentry();
void startFlags();
fetchAccount()
  .then(() => {
    // A picture on Gravatar is loaded only with consent: asked for once it is there.
    if (auth.user?.imageUrl && isGravatar(auth.user.imageUrl)) offerService('gravatar');
  })
  .catch((err: unknown) => {
    if (err instanceof NetworkError) {
      goOffline((to) => {
        history.pushState(null, '', to);
        dispatchEvent(new PopStateEvent('popstate'));
      });
    }
  });

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
