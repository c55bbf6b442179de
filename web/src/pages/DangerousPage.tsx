import { useEffect } from 'react';
import Alert from 'react-bootstrap/Alert';
import Spinner from 'react-bootstrap/Spinner';
import { useLocation, useParams } from 'wouter';
import { useShort } from '../api/queries/shorts';
import { de, t } from '../i18n/de';
import { isNotFound } from '../lib/errors';
import { followUrl } from './PasswordPage';

/** /s/{code}/potentially-dangerous: the warning before following a short flagged dangerous. */
export default function DangerousPage() {
  const { code = '' } = useParams<{ code: string }>();
  const [, navigate] = useLocation();
  const { data: short, error, isPending } = useShort(code);
  const notFound = isNotFound(error);
  // An unknown short has no warning to show: its info page says it does not exist.
  useEffect(() => {
    if (notFound) navigate(`/s/${encodeURIComponent(code)}/info`, { replace: true });
  }, [notFound, code, navigate]);
  if (isPending) return <Spinner animation="border" role="status" />;
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
