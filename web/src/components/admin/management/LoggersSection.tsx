import { useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Badge from 'react-bootstrap/Badge';
import Form from 'react-bootstrap/Form';
import Table from 'react-bootstrap/Table';
import { useLoggers, useSetLoggerLevel } from '../../../api/queries/management';
import { errorText } from '../../../lib/errors';
import { toast } from '../../../state/toasts';
import { Heading, loadError } from './Heading';
import { useT } from '../../../i18n/context';

/** GET /management/loggers; POST /management/loggers/{logger} changes a level at once. */
export function LoggersSection() {
  const { msg, t } = useT();
  const loggers = useLoggers();
  const setLevel = useSetLoggerLevel();
  const [filter, setFilter] = useState('');
  const levels = loggers.data?.levels ?? [];
  const all = loggers.data?.loggers ?? {};

  async function change(logger: string, value: string) {
    // '' is 'Standard': back to the default level.
    const level = levels.find((l) => l === value) ?? null;
    try {
      await setLevel(logger, level);
      toast.success(
        t(msg.admin.loggers.changed, { logger, level: level ?? msg.admin.loggers.reset }),
      );
    } catch (err) {
      toast.error(`${msg.admin.loggers.failed} ${errorText(err, '', msg.admin.errors)}`.trim());
    }
  }

  const names = Object.keys(all).filter((n) => n.toLowerCase().includes(filter.toLowerCase()));
  return (
    <section aria-labelledby="admin-loggers-title">
      <Heading
        id="admin-loggers-title"
        title={msg.admin.loggers.title}
        onReload={() => void loggers.refetch()}
      />
      <p className="text-body-secondary">{msg.admin.loggers.intro}</p>
      {loggers.isError && <Alert variant="danger">{loadError(msg, loggers.error)}</Alert>}
      <Form.Group className="mb-3" controlId="admin-logger-filter">
        <Form.Label>{msg.admin.loggers.filter}</Form.Label>
        <Form.Control value={filter} onChange={(e) => setFilter(e.target.value)} />
      </Form.Group>
      <Table responsive size="sm" className="align-middle">
        <thead>
          <tr>
            <th scope="col">{msg.admin.loggers.name}</th>
            <th scope="col">{msg.admin.loggers.configured}</th>
            <th scope="col">{msg.admin.loggers.effective}</th>
          </tr>
        </thead>
        <tbody>
          {names.map((name) => {
            const l = all[name];
            return (
              <tr key={name} data-testid={`logger-${name}`}>
                <th scope="row" className="text-break">
                  {name}
                </th>
                <td>
                  <Form.Select
                    size="sm"
                    aria-label={t(msg.admin.loggers.level, { logger: name })}
                    value={l.configuredLevel ?? ''}
                    onChange={(e) => void change(name, e.target.value)}
                  >
                    <option value="">{msg.admin.loggers.reset}</option>
                    {levels.map((lv) => (
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
