import Alert from 'react-bootstrap/Alert';
import Badge from 'react-bootstrap/Badge';
import Spinner from 'react-bootstrap/Spinner';
import Table from 'react-bootstrap/Table';
import { useShortReports } from '../../api/queries/shorts';
import { errorText } from '../../lib/errors';
import { formatDateTime } from '../../lib/expiry';
import { useT } from '../../i18n/context';

const STATE_VARIANT: Record<string, string> = {
  open: 'warning',
  dismissed: 'secondary',
  actioned: 'success',
};

/** 'Beschwerden': the short's reports for its owner and admins, newest first (the reporters unnamed). */
export function ComplaintsList({ id }: { id: string }) {
  const { msg } = useT();
  const { data, error } = useShortReports(id, true);
  if (error) return <Alert variant="danger">{errorText(error, msg.complaints.loadError)}</Alert>;
  if (!data)
    return (
      <Spinner animation="border" size="sm" role="status" aria-label={msg.complaints.loading} />
    );
  if (data.length === 0) return <p className="mb-0">{msg.complaints.empty}</p>;
  return (
    <Table responsive size="sm" className="mb-0" data-testid="complaints-table">
      <caption className="visually-hidden">{msg.complaints.caption}</caption>
      <thead>
        <tr>
          <th scope="col">{msg.complaints.date}</th>
          <th scope="col">{msg.complaints.reason}</th>
          <th scope="col">{msg.complaints.description}</th>
          <th scope="col">{msg.complaints.state}</th>
        </tr>
      </thead>
      <tbody>
        {data.map((r, i) => (
          <tr key={`${r.createdAt}-${i}`}>
            <td className="text-nowrap">{formatDateTime(r.createdAt)}</td>
            <td>{msg.report.types[r.reason]}</td>
            <td className="text-break" style={{ whiteSpace: 'pre-wrap' }}>
              {r.description}
            </td>
            <td>
              <Badge
                bg={STATE_VARIANT[r.state] ?? 'secondary'}
                text={r.state === 'open' ? 'dark' : undefined}
              >
                {msg.complaints.states[r.state] ?? r.state}
              </Badge>
            </td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}
