import { useEffect } from 'react';
import Alert from 'react-bootstrap/Alert';
import Spinner from 'react-bootstrap/Spinner';
import { useLocation, useParams } from 'wouter';
import { useShort } from '../api/queries/shorts';
import { isNotFound } from '../lib/errors';
import { followUrl } from './PasswordPage';
import { useT } from '../i18n/context';

/** /s/{code}/potentially-dangerous: the warning before following a short flagged dangerous. */
export default function DangerousPage() {
  const { msg, t } = useT();
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
      <h1>{msg.dangerous.title}</h1>
      <Alert variant="danger">{msg.dangerous.text}</Alert>
      {short?.url && <p className="text-break">{t(msg.dangerous.target, { url: short.url })}</p>}
      <a className="btn btn-danger" href={followUrl(code, { accept_danger: 'true' })}>
        {msg.dangerous.open}
      </a>
    </section>
  );
}
