import 'bootstrap/dist/css/bootstrap.min.css';
import './styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { NetworkError } from './api/client';
import { App } from './App';
import { goOffline } from './lib/offline';
import { fetchAccount } from './state/auth';
import { initCookies } from './state/cookies';
import { startFlags } from './state/flags';
import { initTheme } from './state/theme';
import { watchConsentForSentry } from './telemetry/sentry';

initTheme();
initCookies();
watchConsentForSentry();
void startFlags();
fetchAccount().catch((err: unknown) => {
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
