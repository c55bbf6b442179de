import Alert from 'react-bootstrap/Alert';
import Badge from 'react-bootstrap/Badge';
import Spinner from 'react-bootstrap/Spinner';
import Table from 'react-bootstrap/Table';
import { useHealth } from '../../../api/queries/management';
import { Heading, loadError } from './Heading';
import { useT } from '../../../i18n/context';

function Json({ value }: { value: unknown }) {
  return <pre className="small mb-0 text-wrap text-break">{JSON.stringify(value, null, 2)}</pre>;
}

/** GET /management/health with the components (db, disk, memory) admins see. */
export function HealthSection() {
  const { msg, t } = useT();
  const { report: health, error, refetch } = useHealth();
  return (
    <section aria-labelledby="admin-health-title">
      <Heading
        id="admin-health-title"
        title={msg.admin.health.title}
        onReload={() => void refetch()}
      />
      {error && <Alert variant="danger">{loadError(msg, error)}</Alert>}
      {!health && !error && <Spinner animation="border" role="status" />}
      {health && (
        <>
          <p>
            <Badge bg={health.status === 'UP' ? 'success' : 'danger'} data-testid="health-status">
              {t(msg.admin.health.status, { status: health.status })}
            </Badge>
          </p>
          {health.groups && (
            <p>{t(msg.admin.health.groups, { groups: health.groups.join(', ') })}</p>
          )}
          <Table responsive size="sm" className="align-middle">
            <thead>
              <tr>
                <th scope="col">{msg.admin.health.component}</th>
                <th scope="col">{msg.admin.health.state}</th>
                <th scope="col">{msg.admin.health.details}</th>
              </tr>
            </thead>
            <tbody>
              {Object.entries(health.components ?? {}).map(([name, c]) => (
                <tr key={name}>
                  <th scope="row">{name}</th>
                  <td>
                    <Badge bg={c.status === 'UP' ? 'success' : 'danger'}>{c.status ?? '?'}</Badge>
                  </td>
                  <td>{c.details ? <Json value={c.details} /> : msg.admin.none}</td>
                </tr>
              ))}
            </tbody>
          </Table>
        </>
      )}
    </section>
  );
}
