import { useEffect, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Spinner from 'react-bootstrap/Spinner';
import { useLocation, useParams } from 'wouter';
import { api, unwrap, type Short } from '../api/client';
import { de, t } from '../i18n/de';
import { isNotFound } from '../lib/errors';
import { followUrl } from './PasswordPage';

export default function DangerousPage() {
  const { code = '' } = useParams<{ code: string }>();
  const [, navigate] = useLocation();
  const [short, setShort] = useState<Short | null>(null);
  const [loaded, setLoaded] = useState(false);
  useEffect(() => {
    unwrap(
      api.GET('/api/code/{id}', { params: { path: { id: code }, query: { redirect: 'false' } } }),
    )
      .then((s) => setShort(s as Short))
      .catch((err: unknown) => {
        // SPEC §8: a 404 on the dangerous page redirects to info.
        if (isNotFound(err)) navigate(`/s/${encodeURIComponent(code)}/info`, { replace: true });
      })
      .finally(() => setLoaded(true));
  }, [code, navigate]);
  if (!loaded) return <Spinner animation="border" role="status" />;
  return (
    <section className="mx-auto" style={{ maxWidth: 640 }}>
      <h1>{de.dangerous.title}</h1>
      <Alert variant="danger">{de.dangerous.text}</Alert>
      {short?.url && <p className="text-break">{t(de.dangerous.target, { url: short.url })}</p>}
      <a className="btn btn-danger" href={followUrl(code, { accept_danger: 'true' })}>
        {de.dangerous.open}
      </a>
    </section>
  );
}
