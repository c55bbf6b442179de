import { lazy, Suspense, useEffect, useState } from 'react';
import Spinner from 'react-bootstrap/Spinner';
import { useSnapshot } from 'valtio';
import { Redirect, Route, Switch, useLocation, useParams, useSearch } from 'wouter';
import { ErrorBoundary } from './components/ErrorBoundary';
import { RequireLogin } from './components/RequireLogin';
import { Shell } from './components/Shell';
import { Toasts } from './components/Toasts';
import { I18nProvider, useT } from './i18n/context';
import { titleFor } from './lib/titles';
import StartPage from './pages/StartPage';
import { cookies } from './state/cookies';
import { flags } from './state/flags';
import { CLIENT_ROUTES as ROUTES } from '@shared/client-routes';

const LoginPage = lazy(() => import('./pages/LoginPage'));
const InfoPage = lazy(() => import('./pages/InfoPage'));
const ShortPromptPage = lazy(() => import('./pages/ShortPromptPage'));
const DangerousPage = lazy(() => import('./pages/DangerousPage'));
const PasswordPage = lazy(() => import('./pages/PasswordPage'));
const OfflinePage = lazy(() => import('./pages/OfflinePage'));
const ShortsPage = lazy(() => import('./pages/ShortsPage'));
const AccountPage = lazy(() => import('./pages/AccountPage'));
const AdminPage = lazy(() => import('./pages/AdminPage'));
const TeamsPage = lazy(() => import('./pages/TeamsPage'));
const InvitePage = lazy(() => import('./pages/InvitePage'));
const ApiKeysPage = lazy(() => import('./pages/ApiKeysPage'));
const WebhooksPage = lazy(() => import('./pages/WebhooksPage'));
const TagStatisticsPage = lazy(() => import('./pages/TagStatisticsPage'));
/** The consent and experiments dialogs (and react-bootstrap's Modal): loaded when first opened. */
const CookieDialog = lazy(() =>
  import('./components/CookieDialog').then((m) => ({ default: m.CookieDialog })),
);
const ExperimentsDialog = lazy(() =>
  import('./components/ExperimentsDialog').then((m) => ({ default: m.ExperimentsDialog })),
);
/** The QueryClient (react-query), loaded with the first page that shows server data. */
const Queries = lazy(() => import('./api/QueryScope'));

function InfoRedirect({ query }: { query: string }) {
  const { code = '' } = useParams<{ code: string }>();
  // The follow's not-found redirect may say why (?reason=expired|used-up): the info page tells it.
  const reason = new URLSearchParams(useSearch()).get('reason');
  const why = reason ? `&reason=${encodeURIComponent(reason)}` : '';
  return <Redirect to={`/s/${encodeURIComponent(code)}/info?${query}${why}`} replace />;
}

/** /s/{code} reached inside the client: the backend follows it. */
function Follow() {
  const { code = '' } = useParams<{ code: string }>();
  useEffect(() => {
    window.location.replace(`/api/code/${encodeURIComponent(code)}`);
  }, [code]);
  return <Spinner animation="border" role="status" />;
}

/** The document title follows the route (lib/titles.ts) and the language. */
function DocumentTitle() {
  const { lang } = useT();
  const [location] = useLocation();
  useEffect(() => {
    document.title = titleFor(location);
  }, [location, lang]);
  return null;
}

/** The routes, from the table the server reserves (src/shared/client-routes.ts); no path here. */
export function AppRoutes() {
  return (
    <Suspense fallback={<Spinner animation="border" role="status" />}>
      <Switch>
        <Route path={ROUTES.start} component={StartPage} />
        <Route path={ROUTES.login} component={LoginPage} />
        <Route path={ROUTES.shortPrompt} component={ShortPromptPage} />
        <Route path={ROUTES.info}>
          <Queries>
            <InfoPage />
          </Queries>
        </Route>
        <Route path={ROUTES.dangerous}>
          <Queries>
            <DangerousPage />
          </Queries>
        </Route>
        <Route path={ROUTES.dangerousCamel}>
          <Queries>
            <DangerousPage />
          </Queries>
        </Route>
        <Route path={ROUTES.password} component={PasswordPage} />
        <Route path={ROUTES.passwordCamel} component={PasswordPage} />
        <Route path={ROUTES.notFound}>
          <InfoRedirect query="not_found=true" />
        </Route>
        <Route path={ROUTES.notFoundCamel}>
          <InfoRedirect query="not_found=true" />
        </Route>
        <Route path={ROUTES.delete}>
          <InfoRedirect query="show_delete=true" />
        </Route>
        <Route path={ROUTES.follow} component={Follow} />
        <Route path={ROUTES.offline} component={OfflinePage} />
        <Route path={ROUTES.shorts}>
          <RequireLogin>
            <Queries>
              <ShortsPage />
            </Queries>
          </RequireLogin>
        </Route>
        <Route path={ROUTES.apiKeys}>
          <RequireLogin>
            <Queries>
              <ApiKeysPage />
            </Queries>
          </RequireLogin>
        </Route>
        <Route path={ROUTES.webhooks}>
          <RequireLogin>
            <Queries>
              <WebhooksPage />
            </Queries>
          </RequireLogin>
        </Route>
        <Route path={ROUTES.tagStatistics}>
          <RequireLogin>
            <Queries>
              <TagStatisticsPage />
            </Queries>
          </RequireLogin>
        </Route>
        <Route path={ROUTES.teams}>
          <RequireLogin>
            <Queries>
              <TeamsPage />
            </Queries>
          </RequireLogin>
        </Route>
        <Route path={ROUTES.team}>
          <RequireLogin>
            <Queries>
              <TeamsPage />
            </Queries>
          </RequireLogin>
        </Route>
        <Route path={ROUTES.invite}>
          {/* Logged in first: RequireLogin remembers this page for after the login. */}
          <RequireLogin>
            <InvitePage />
          </RequireLogin>
        </Route>
        <Route path={ROUTES.account}>
          <RequireLogin>
            <Queries>
              <AccountPage />
            </Queries>
          </RequireLogin>
        </Route>
        <Route path={ROUTES.admin}>
          {/* Logged in: AdminPage itself tells a non-admin why there is nothing here. */}
          <RequireLogin>
            <Queries>
              <AdminPage />
            </Queries>
          </RequireLogin>
        </Route>
        <Route>
          <Redirect to="/" replace />
        </Route>
      </Switch>
    </Suspense>
  );
}

/**
 * The app's dialogs, each mounted from its first opening on (it stays, so it can close with its
 * animation and open again at once): not part of the start page's first load (the budget).
 */
function Dialogs() {
  const c = useSnapshot(cookies);
  const f = useSnapshot(flags);
  const [opened, setOpened] = useState({ cookies: false, experiments: false });
  if ((c.showCookieDialog && !opened.cookies) || (f.showExperimentDialog && !opened.experiments)) {
    setOpened({
      cookies: opened.cookies || c.showCookieDialog,
      experiments: opened.experiments || f.showExperimentDialog,
    });
  }
  return (
    <Suspense fallback={null}>
      {opened.cookies && <CookieDialog />}
      {opened.experiments && <ExperimentsDialog />}
    </Suspense>
  );
}

/**
 * Every component reads its texts from the i18n context (`useT()`, i18n/context.tsx): a change of
 * language renders the app again in the chosen language, without a reload and without a remount
 * (the server's data stays in the query cache, what was typed into an open form stays).
 */
export function App() {
  return (
    <I18nProvider>
      <ErrorBoundary>
        <DocumentTitle />
        <Shell>
          <AppRoutes />
        </Shell>
        <Toasts />
        <Dialogs />
      </ErrorBoundary>
    </I18nProvider>
  );
}
