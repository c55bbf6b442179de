import { type ReactNode, useEffect, useState } from 'react';
import Accordion from 'react-bootstrap/Accordion';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import InputGroup from 'react-bootstrap/InputGroup';
import Spinner from 'react-bootstrap/Spinner';
import { useSnapshot } from 'valtio';
import { Link, useLocation, useParams, useSearch } from 'wouter';
import { api, unwrap, type Schemas, type Short } from '../api/client';
import { ReportDialog } from '../components/ReportDialog';
import { de, t } from '../i18n/de';
import { errorDetail, isNotFound } from '../lib/errors';
import { formatDateTime } from '../lib/expiry';
import { displayUrl } from '../lib/idn';
import { FLAGS } from '../lib/flag-rule';
import { shortLink } from '../runtime-config';
import { auth, isAdmin } from '../state/auth';
import { flags } from '../state/flags';
import { toast } from '../state/toasts';

type Meta = Schemas['ShortMetaDto'];

/** SPEC §9: expiry warning 24 hours. */
export function expiresWithin24h(expireAt: string | null, now = Date.now()): boolean {
  return Boolean(expireAt) && new Date(expireAt as string).getTime() - now <= 24 * 3600_000;
}

function useQuery(): [URLSearchParams, (change: Record<string, string | null>) => void] {
  const search = useSearch();
  const [location, navigate] = useLocation();
  const params = new URLSearchParams(search);
  const set = (change: Record<string, string | null>) => {
    const next = new URLSearchParams(search);
    for (const [k, v] of Object.entries(change)) {
      if (v === null) next.delete(k);
      else next.set(k, v);
    }
    const q = next.toString();
    navigate(`${location}${q ? `?${q}` : ''}`, { replace: true });
  };
  return [params, set];
}

async function copyLink(link: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(link);
    toast.success(de.info.linkCopied);
  } catch {
    toast.error(de.info.copyFailed);
  }
}

async function shareLink(link: string, title: string): Promise<void> {
  try {
    if (!navigator.share) throw new Error('no share');
    await navigator.share({ url: link, title });
  } catch (err) {
    if (err instanceof DOMException && err.name === 'AbortError') return;
    toast.error(de.info.shareFailed);
  }
}

function CreatedBanner({ short, anonymous }: { short: Short; anonymous: boolean }) {
  const link = shortLink(short.code);
  return (
    <Alert variant="success" data-testid="created-banner">
      <Alert.Heading as="h2" className="h5">
        {de.info.created}
      </Alert.Heading>
      <Form.Label htmlFor="share-link">{de.info.shareLink}</Form.Label>
      <InputGroup className="mb-2">
        <Form.Control id="share-link" readOnly value={link} />
        <Button variant="success" onClick={() => void copyLink(link)}>
          {de.info.copy}
        </Button>
        <Button variant="success" onClick={() => void shareLink(link, short.name ?? short.code)}>
          {de.info.share}
        </Button>
      </InputGroup>
      {expiresWithin24h(short.expireAt) && <p className="mb-1">{de.info.expiresSoon}</p>}
      {anonymous && <p className="mb-0">{de.info.loginForLonger}</p>}
    </Alert>
  );
}

function MetaSection({ code }: { code: string }) {
  const [meta, setMeta] = useState<Meta | null>(null);
  const [failed, setFailed] = useState(false);
  const [showImage, setShowImage] = useState(false);
  useEffect(() => {
    unwrap(api.GET('/api/code/{code}/metadata', { params: { path: { code } } }))
      .then(setMeta)
      .catch(() => setFailed(true));
  }, [code]);
  return (
    <Card className="mb-3">
      <Card.Body>
        <h2 className="h5">{de.info.metaTitle}</h2>
        {failed || (meta && !meta.title && !meta.description && !meta.image) ? (
          <p className="mb-0">{de.info.metaUnavailable}</p>
        ) : !meta ? (
          <Spinner animation="border" size="sm" role="status" />
        ) : (
          <>
            {meta.title && <p className="fw-semibold mb-1">{meta.title}</p>}
            {meta.description && <p>{meta.description}</p>}
            {meta.image &&
              (showImage ? (
                <img
                  src={meta.image}
                  alt={meta.title ?? ''}
                  className="img-fluid rounded"
                  referrerPolicy="no-referrer"
                />
              ) : (
                <div>
                  <p className="small text-body-secondary mb-1">{de.info.metaImageHint}</p>
                  <Button size="sm" variant="outline-secondary" onClick={() => setShowImage(true)}>
                    {de.info.metaImage}
                  </Button>
                </div>
              ))}
          </>
        )}
      </Card.Body>
    </Card>
  );
}

function Field({
  id,
  label,
  value,
  hint,
}: {
  id: string;
  label: string;
  value: string;
  hint?: ReactNode;
}) {
  return (
    <Form.Group className="mb-2 row" controlId={`field-${id}`}>
      <Form.Label column sm={3}>
        {label}
      </Form.Label>
      <div className="col-sm-9">
        <Form.Control readOnly value={value} aria-describedby={hint ? `hint-${id}` : undefined} />
        {hint && (
          <Form.Text id={`hint-${id}`} className="text-warning-emphasis">
            {hint}
          </Form.Text>
        )}
      </div>
    </Form.Group>
  );
}

/** The target as a visitor reads it: Unicode host, plus the real (punycode) address when scripts mix. */
function UrlField({ url }: { url: string | null }) {
  if (url === null) return <Field id="url" label={de.info.fieldUrl} value={de.info.hiddenUrl} />;
  const shown = displayUrl(url);
  return (
    <Field
      id="url"
      label={de.info.fieldUrl}
      value={shown.unicode}
      hint={
        shown.punycode && (
          <>
            {de.info.mixedScripts} <code>{shown.punycode}</code>
          </>
        )
      }
    />
  );
}

export default function InfoPage() {
  const { code = '' } = useParams<{ code: string }>();
  const [, navigate] = useLocation();
  const [query, setQuery] = useQuery();
  const a = useSnapshot(auth);
  // SPEC §2: the accordions say 'coming soon' unless the statistics experiment is switched on.
  const statistics = Boolean(useSnapshot(flags).enabled[FLAGS.statistics]);
  const [short, setShort] = useState<Short | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [showWarning, setShowWarning] = useState(false);

  useEffect(() => {
    setShort(null);
    setError(null);
    unwrap(
      api.GET('/api/code/{id}', { params: { path: { id: code }, query: { redirect: 'false' } } }),
    )
      .then((s) => setShort(s as Short))
      .catch((err: unknown) => setError(err ?? new Error('error')));
  }, [code]);

  if (error) {
    return (
      <section>
        <h1 className="h3">{de.info.loadError}</h1>
        <Alert variant="danger">
          {isNotFound(error)
            ? t(de.info.notFound, { code })
            : (errorDetail(error) ?? de.error.unknown)}
        </Alert>
        <Link href="/" className="btn btn-outline-primary">
          {de.error.toStart}
        </Link>
      </section>
    );
  }
  if (!short) return <Spinner animation="border" role="status" />;

  const user = a.user;
  const owner = Boolean(user && (short.owner?.id === user.id || isAdmin(user as never)));
  const link = shortLink(short.code);

  async function doDelete() {
    try {
      const { response } = await api.DELETE('/api/code/{id}', {
        params: { path: { id: short!.id } },
      });
      if (!response.ok) throw new Error(String(response.status));
      toast.success(de.info.deleted);
      navigate('/');
    } catch {
      toast.error(de.info.deleteFailed);
    }
  }

  return (
    <section>
      <h1 className="h3">{de.info.title}</h1>
      {query.get('show_created') === 'true' && (
        <CreatedBanner short={short} anonymous={a.status !== 'authenticated'} />
      )}
      {query.get('show_delete') === 'true' && (
        <Alert variant="danger">
          <p>{de.info.deleteConfirm}</p>
          <div className="d-flex gap-2">
            <Button variant="danger" onClick={() => void doDelete()}>
              {de.info.deleteFinal}
            </Button>
            <Button variant="outline-secondary" onClick={() => setQuery({ show_delete: null })}>
              {de.info.cancel}
            </Button>
          </div>
        </Alert>
      )}
      {short.dangers && <Alert variant="warning">{de.info.dangerous}</Alert>}
      <Card className="mb-3">
        <Card.Body>
          <Field id="code" label={de.info.fieldCode} value={short.code} />
          {short.name && <Field id="name" label={de.info.fieldName} value={short.name} />}
          <UrlField url={short.url} />
          <Field
            id="password"
            label={de.info.fieldPassword}
            value={short.hasPassword ? de.info.yes : de.info.no}
          />
          <Field
            id="maxuses"
            label={de.info.fieldMaxUses}
            value={short.maxUses == null ? de.create.unlimited : String(short.maxUses)}
          />
          <Field
            id="created"
            label={de.info.fieldCreatedAt}
            value={formatDateTime(short.createdAt)}
          />
          <Field
            id="expire"
            label={de.info.fieldExpireAt}
            value={short.expireAt ? formatDateTime(short.expireAt) : de.info.never}
          />
          <Field
            id="owner"
            label={de.info.fieldOwner}
            value={short.owner?.username ?? de.info.anonymous}
          />
          <div className="d-flex flex-wrap gap-2 mt-3">
            <Button
              variant="primary"
              onClick={() => {
                if (!showWarning) return setShowWarning(true);
                window.open(`/s/${encodeURIComponent(short.code)}`, '_blank', 'noopener');
                setQuery({ show_report: 'true' });
              }}
            >
              {de.info.open}
            </Button>
            <Button
              variant="outline-secondary"
              onClick={() => void shareLink(link, short.name ?? short.code)}
            >
              {de.info.share}
            </Button>
            <Button variant="outline-secondary" onClick={() => void copyLink(link)}>
              {de.info.copy}
            </Button>
            {owner ? (
              <Button variant="outline-danger" onClick={() => setQuery({ show_delete: 'true' })}>
                {de.info.delete}
              </Button>
            ) : (
              <Button variant="outline-danger" onClick={() => setQuery({ show_report: 'true' })}>
                {de.info.report}
              </Button>
            )}
          </div>
          {showWarning && (
            <Alert variant="warning" className="mt-3 mb-0">
              {de.info.externalWarning}
            </Alert>
          )}
        </Card.Body>
      </Card>
      {short.url && <MetaSection code={short.code} />}
      <Accordion className="mb-3">
        <Accordion.Item eventKey="stats">
          <Accordion.Header>{de.info.statistics}</Accordion.Header>
          <Accordion.Body data-testid="statistics-body">
            {statistics ? de.info.statisticsPlanned : de.info.comingSoon}
          </Accordion.Body>
        </Accordion.Item>
        <Accordion.Item eventKey="complaints">
          <Accordion.Header>{de.info.complaints}</Accordion.Header>
          <Accordion.Body data-testid="complaints-body">
            {statistics ? de.info.complaintsPlanned : de.info.comingSoon}
          </Accordion.Body>
        </Accordion.Item>
      </Accordion>
      <ReportDialog
        code={short.code}
        show={query.has('show_report')}
        onClose={() => setQuery({ show_report: null })}
      />
    </section>
  );
}
