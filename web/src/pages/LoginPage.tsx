import { useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Spinner from 'react-bootstrap/Spinner';
import { useSnapshot } from 'valtio';
import { Redirect, useSearch } from 'wouter';
import { api, unwrap } from '../api/client';
import { useResolved } from '../components/useResolved';
import { loginReturn, providerLoginUrl, safeReturnPath } from '../lib/login';
import { runtimeConfig } from '../runtime-config';
import { auth } from '../state/auth';
import { useT } from '../i18n/context';

/**
 * The checkbox's label: with FOOTER_TERMS_URL set, its words for the terms link to them (a new
 * tab, so the login page and the ticked box stay); else the plain sentence.
 */
function TermsLabel() {
  const { msg } = useT();
  const url = runtimeConfig.footer.termsUrl;
  const text = msg.login.acceptTerms;
  const at = text.indexOf(msg.login.termsLink);
  if (!url || at < 0) return <>{text}</>;
  return (
    <>
      {text.slice(0, at)}
      <a href={url} target="_blank" rel="noopener noreferrer" data-testid="terms-link">
        {msg.login.termsLink}
        <span className="visually-hidden"> {msg.login.termsOpens}</span>
      </a>
      {text.slice(at + msg.login.termsLink.length)}
    </>
  );
}

const loadProviders = () => unwrap(api.GET('/api/auth-providers')).catch(() => []);
type LoginProviders = Awaited<ReturnType<typeof loadProviders>>;

/** /login: terms checkbox, one button per provider; authenticated users go to /. */
export default function LoginPage() {
  const { msg, t } = useT();
  const a = useSnapshot(auth);
  const search = useSearch();
  const query = new URLSearchParams(search);
  // No providers when they cannot be loaded either: the page says none are configured. A plain
  // request, not a query: the login page is a first visit's page and needs no query client.
  const providers = useResolved<LoginProviders | null>(loadProviders, [], null);
  const loginProvider = providers ?? [];
  const [accepted, setAccepted] = useState(false);
  const [error, setError] = useState<string | null>(null);
  if (a.status === 'authenticated') return <Redirect to="/" replace />;
  // Back to the page that sent the user here: an explicit ?redirect=, else the remembered page.
  const redirect = safeReturnPath(query.get('redirect')) ?? loginReturn();
  const failure = query.get('error');
  return (
    <section className="mx-auto" style={{ maxWidth: 480 }}>
      <h1>{msg.login.title}</h1>
      {failure && (
        <Alert variant="danger" data-testid="login-error">
          {failure === 'provider_unavailable' ? msg.login.providerUnavailable : msg.login.failed}
        </Alert>
      )}
      {providers === null ? (
        <p className="d-flex align-items-center gap-2">
          <Spinner animation="border" size="sm" role="status" aria-hidden />
          {msg.login.loading}
        </p>
      ) : loginProvider.length === 0 ? (
        <Alert variant="warning">{msg.login.noProvider}</Alert>
      ) : (
        <>
          <p>{msg.login.intro}</p>
          <Form.Check
            id="accept-terms"
            className="mb-3"
            label={<TermsLabel />}
            checked={accepted}
            onChange={(e) => {
              setAccepted(e.currentTarget.checked);
              setError(null);
            }}
            isInvalid={Boolean(error)}
            feedback={error ?? undefined}
            feedbackType="invalid"
          />
          <div className="d-grid gap-2">
            {loginProvider.map((p) => (
              <Button
                key={p.name}
                variant="outline-primary"
                onClick={() => {
                  if (!accepted) return setError(msg.login.termsRequired);
                  window.location.href = providerLoginUrl(p.url, redirect);
                }}
              >
                {t(msg.login.withProvider, { provider: p.name })}
              </Button>
            ))}
          </div>
        </>
      )}
    </section>
  );
}
