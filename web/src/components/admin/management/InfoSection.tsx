import Alert from 'react-bootstrap/Alert';
import Spinner from 'react-bootstrap/Spinner';
import Table from 'react-bootstrap/Table';
import { useManagementInfo } from '../../../api/queries/management';
import { flattenInfo } from '../../../lib/admin';
import { Heading, loadError } from './Heading';
import { useT } from '../../../i18n/context';

/** GET /management/info: version, build and git. */
export function InfoSection() {
  const { msg } = useT();
  const { data: info, error } = useManagementInfo();
  return (
    <section aria-labelledby="admin-info-title">
      <Heading id="admin-info-title" title={msg.admin.info.title} />
      {error && <Alert variant="danger">{loadError(msg, error)}</Alert>}
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
