import { useEffect, useState, type FormEvent } from 'react';
import Alert from 'react-bootstrap/Alert';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import InputGroup from 'react-bootstrap/InputGroup';
import Spinner from 'react-bootstrap/Spinner';
import Table from 'react-bootstrap/Table';
import { useSnapshot } from 'valtio';
import { api, unwrap, type Schemas } from '../../api/client';
import { de, t } from '../../i18n/de';
import { flattenInfo, formatAdminDate, logsStartDate } from '../../lib/admin';
import { errorDetail } from '../../lib/errors';
import { admin, loadLoggers, setLoggerLevel } from '../../state/admin';
import { toast } from '../../state/toasts';

type Health = Schemas['HealthReportDto'];
type LogEntry = Schemas['LogEntryDto'];

function loadError(err: unknown): string {
  return t(de.admin.loadError, { detail: errorDetail(err) ?? de.error.unknown });
}

function Heading({ id, title, onReload }: { id: string; title: string; onReload?: () => void }) {
  return (
    <div className="d-flex align-items-center gap-2 mb-3">
      <h2 id={id} className="h4 mb-0 me-auto">
        {title}
      </h2>
      {onReload && (
        <Button size="sm" variant="outline-secondary" onClick={onReload}>
          {de.admin.reload}
        </Button>
      )}
    </div>
  );
}

function Json({ value }: { value: unknown }) {
  return <pre className="small mb-0 text-wrap text-break">{JSON.stringify(value, null, 2)}</pre>;
}

/** GET /management/health with the components (db, disk, memory) admins see. */
export function HealthSection() {
  const [health, setHealth] = useState<Health | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [n, setN] = useState(0);
  useEffect(() => {
    // A DOWN answer is a 503 whose body is the same report.
    api
      .GET('/management/health')
      .then(({ data, error: body, response }) => {
        const report = (data ?? body) as Health | undefined;
        if (report && typeof report === 'object' && 'status' in report) {
          setHealth(report);
          setError(null);
        } else setError(loadError({ detail: `${response.status}` }));
      })
      .catch((err: unknown) => setError(loadError(err)));
  }, [n]);
  return (
    <section aria-labelledby="admin-health-title">
      <Heading id="admin-health-title" title={de.admin.health.title} onReload={() => setN(n + 1)} />
      {error && <Alert variant="danger">{error}</Alert>}
      {!health && !error && <Spinner animation="border" role="status" />}
      {health && (
        <>
          <p>
            <Badge bg={health.status === 'UP' ? 'success' : 'danger'} data-testid="health-status">
              {t(de.admin.health.status, { status: health.status })}
            </Badge>
          </p>
          {health.groups && (
            <p>{t(de.admin.health.groups, { groups: health.groups.join(', ') })}</p>
          )}
          <Table responsive size="sm" className="align-middle">
            <thead>
              <tr>
                <th scope="col">{de.admin.health.component}</th>
                <th scope="col">{de.admin.health.state}</th>
                <th scope="col">{de.admin.health.details}</th>
              </tr>
            </thead>
            <tbody>
              {Object.entries(health.components ?? {}).map(([name, c]) => (
                <tr key={name}>
                  <th scope="row">{name}</th>
                  <td>
                    <Badge bg={c.status === 'UP' ? 'success' : 'danger'}>{c.status ?? '?'}</Badge>
                  </td>
                  <td>{c.details ? <Json value={c.details} /> : de.admin.none}</td>
                </tr>
              ))}
            </tbody>
          </Table>
        </>
      )}
    </section>
  );
}

/** GET /management/info: version, build and git. */
export function InfoSection() {
  const [info, setInfo] = useState<Record<string, unknown> | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    unwrap(api.GET('/management/info'))
      .then(setInfo)
      .catch((err: unknown) => setError(loadError(err)));
  }, []);
  return (
    <section aria-labelledby="admin-info-title">
      <Heading id="admin-info-title" title={de.admin.info.title} />
      {error && <Alert variant="danger">{error}</Alert>}
      {!info && !error && <Spinner animation="border" role="status" />}
      {info && (
        <Table responsive size="sm" className="align-middle">
          <tbody>
            {flattenInfo(info).map(([k, v]) => (
              <tr key={k} data-testid={`info-${k}`}>
                <th scope="row" className="text-nowrap">
                  {k}
                </th>
                <td className="text-break">{v}</td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
    </section>
  );
}

/** GET /management/loggers; POST /management/loggers/{logger} changes a level at once. */
export function LoggersSection() {
  const a = useSnapshot(admin);
  const [error, setError] = useState<string | null>(null);
  const [filter, setFilter] = useState('');
  useEffect(() => {
    loadLoggers().catch((err: unknown) => setError(loadError(err)));
  }, []);
  async function change(logger: string, level: string) {
    try {
      await setLoggerLevel(logger, level === '' ? null : level);
      toast.success(
        t(de.admin.loggers.changed, { logger, level: level || de.admin.loggers.reset }),
      );
    } catch (err) {
      toast.error(`${de.admin.loggers.failed} ${errorDetail(err) ?? ''}`.trim());
    }
  }
  const names = Object.keys(a.logger.loggers).filter((n) =>
    n.toLowerCase().includes(filter.toLowerCase()),
  );
  return (
    <section aria-labelledby="admin-loggers-title">
      <Heading
        id="admin-loggers-title"
        title={de.admin.loggers.title}
        onReload={() => void loadLoggers().catch((err: unknown) => setError(loadError(err)))}
      />
      <p className="text-body-secondary">{de.admin.loggers.intro}</p>
      {error && <Alert variant="danger">{error}</Alert>}
      <Form.Group className="mb-3" controlId="admin-logger-filter">
        <Form.Label>{de.admin.loggers.filter}</Form.Label>
        <Form.Control value={filter} onChange={(e) => setFilter(e.target.value)} />
      </Form.Group>
      <Table responsive size="sm" className="align-middle">
        <thead>
          <tr>
            <th scope="col">{de.admin.loggers.name}</th>
            <th scope="col">{de.admin.loggers.configured}</th>
            <th scope="col">{de.admin.loggers.effective}</th>
          </tr>
        </thead>
        <tbody>
          {names.map((name) => {
            const l = a.logger.loggers[name];
            return (
              <tr key={name} data-testid={`logger-${name}`}>
                <th scope="row" className="text-break">
                  {name}
                </th>
                <td>
                  <Form.Select
                    size="sm"
                    aria-label={t(de.admin.loggers.level, { logger: name })}
                    value={l.configuredLevel ?? ''}
                    onChange={(e) => void change(name, e.target.value)}
                  >
                    <option value="">{de.admin.loggers.reset}</option>
                    {a.logger.levels.map((lv) => (
                      <option key={lv} value={lv}>
                        {lv}
                      </option>
                    ))}
                  </Form.Select>
                </td>
                <td>
                  <Badge bg="secondary">{l.effectiveLevel}</Badge>
                </td>
              </tr>
            );
          })}
        </tbody>
      </Table>
    </section>
  );
}

/** GET /management/logs with an optional start date. */
export function LogsSection() {
  const [start, setStart] = useState('');
  const [entries, setEntries] = useState<LogEntry[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  async function load(from: string) {
    try {
      const startDate = logsStartDate(from);
      if (from && !startDate) return setError(de.admin.logs.invalid);
      setEntries(
        await unwrap(
          api.GET('/management/logs', { params: { query: startDate ? { startDate } : {} } }),
        ),
      );
      setError(null);
    } catch (err) {
      setError(loadError(err));
    }
  }
  useEffect(() => {
    void load('');
  }, []);
  function submit(e: FormEvent) {
    e.preventDefault();
    void load(start);
  }
  return (
    <section aria-labelledby="admin-logs-title">
      <Heading id="admin-logs-title" title={de.admin.logs.title} />
      <Form onSubmit={submit} className="mb-3">
        <Form.Label htmlFor="admin-logs-start">{de.admin.logs.startDate}</Form.Label>
        <InputGroup style={{ maxWidth: 420 }}>
          <Form.Control
            id="admin-logs-start"
            type="datetime-local"
            step={1}
            value={start}
            onChange={(e) => setStart(e.target.value)}
          />
          <Button type="submit">{de.admin.logs.load}</Button>
        </InputGroup>
      </Form>
      {error && <Alert variant="danger">{error}</Alert>}
      {!entries && !error && <Spinner animation="border" role="status" />}
      {entries && entries.length === 0 && <p>{de.admin.logs.empty}</p>}
      {entries && entries.length > 0 && (
        <Table responsive size="sm" className="small">
          <thead>
            <tr>
              <th scope="col">{de.admin.logs.time}</th>
              <th scope="col">{de.admin.logs.level}</th>
              <th scope="col">{de.admin.logs.logger}</th>
              <th scope="col">{de.admin.logs.message}</th>
            </tr>
          </thead>
          <tbody data-testid="admin-logs">
            {entries
              .slice(-200)
              .reverse()
              .map((l, i) => (
                <tr key={`${l.time}-${i}`}>
                  <td className="text-nowrap">{formatAdminDate(l.time)}</td>
                  <td>{l.level.toUpperCase()}</td>
                  <td>{l.logger}</td>
                  <td className="text-break">{l.message}</td>
                </tr>
              ))}
          </tbody>
        </Table>
      )}
    </section>
  );
}
