import { useState, type FormEvent } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import InputGroup from 'react-bootstrap/InputGroup';
import Spinner from 'react-bootstrap/Spinner';
import Table from 'react-bootstrap/Table';
import { useLogs } from '../../../api/queries/management';
import { formatAdminDate, logsStartDate } from '../../../lib/admin';
import { Heading, loadError } from './Heading';
import { useT } from '../../../i18n/context';

/** GET /management/logs with an optional start date. */
export function LogsSection() {
  const { msg } = useT();
  const [start, setStart] = useState('');
  /** The start date of the shown entries (ISO; undefined: all). */
  const [from, setFrom] = useState<string | undefined>(undefined);
  const [invalid, setInvalid] = useState(false);
  const logs = useLogs(from);
  const entries = logs.data;

  function submit(e: FormEvent) {
    e.preventDefault();
    const startDate = logsStartDate(start);
    setInvalid(Boolean(start) && !startDate);
    if (start && !startDate) return;
    // The same start again loads again.
    if (startDate === from) void logs.refetch();
    else setFrom(startDate);
  }

  const error = invalid ? msg.admin.logs.invalid : logs.isError ? loadError(msg, logs.error) : null;
  return (
    <section aria-labelledby="admin-logs-title">
      <Heading id="admin-logs-title" title={msg.admin.logs.title} />
      <Form onSubmit={submit} className="mb-3">
        <Form.Label htmlFor="admin-logs-start">{msg.admin.logs.startDate}</Form.Label>
        <InputGroup style={{ maxWidth: 420 }}>
          <Form.Control
            id="admin-logs-start"
            type="datetime-local"
            step={1}
            value={start}
            onChange={(e) => setStart(e.target.value)}
          />
          <Button type="submit">{msg.admin.logs.load}</Button>
        </InputGroup>
      </Form>
      {error && <Alert variant="danger">{error}</Alert>}
      {!entries && !error && <Spinner animation="border" role="status" />}
      {entries && entries.length === 0 && <p>{msg.admin.logs.empty}</p>}
      {entries && entries.length > 0 && (
        <Table responsive size="sm" className="small">
          <thead>
            <tr>
              <th scope="col">{msg.admin.logs.time}</th>
              <th scope="col">{msg.admin.logs.level}</th>
              <th scope="col">{msg.admin.logs.logger}</th>
              <th scope="col">{msg.admin.logs.message}</th>
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
