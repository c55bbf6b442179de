import { useEffect, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { useSnapshot } from 'valtio';
import { Redirect } from 'wouter';
import { de, t } from '../i18n/de';
import { auth, fetchLoginProviders } from '../state/auth';

export default function LoginPage() {
  const a = useSnapshot(auth);
  const [loaded, setLoaded] = useState(false);
  const [accepted, setAccepted] = useState(false);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    void fetchLoginProviders().finally(() => setLoaded(true));
  }, []);
  if (a.status === 'authenticated') return <Redirect to="/" replace />;
  return (
    <section className="mx-auto" style={{ maxWidth: 480 }}>
      <h1>{de.login.title}</h1>
      {loaded && a.loginProvider.length === 0 ? (
        <Alert variant="warning">{de.login.noProvider}</Alert>
      ) : (
        <>
          <Form.Check
            id="accept-terms"
            className="mb-3"
            label={de.login.acceptTerms}
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
            {a.loginProvider.map((p) => (
              <Button
                key={p.name}
                variant="outline-primary"
                onClick={() => {
                  if (!accepted) return setError(de.login.termsRequired);
                  window.location.href = p.url;
                }}
              >
                {t(de.login.withProvider, { provider: p.name })}
              </Button>
            ))}
          </div>
        </>
      )}
    </section>
  );
}
