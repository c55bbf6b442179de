import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Table from 'react-bootstrap/Table';
import { type ImportOutcome } from '../../../api/queries/import';
import { skippedCsv, skippedReason } from '../../../lib/import';
import { useTransferT } from '../../../i18n/transfer-text';
import { pluralForm } from '../../../i18n/plural';

export function Result({ outcome }: { outcome: ImportOutcome }) {
  const { t, xm } = useTransferT();
  const download = () => {
    const blob = new Blob([skippedCsv(outcome.skipped)], { type: 'text/csv;charset=utf-8' });
    const a = document.createElement('a');
    a.href = URL.createObjectURL(blob);
    a.download = 'import-uebersprungen.csv';
    a.click();
    URL.revokeObjectURL(a.href);
  };
  return (
    <>
      <Alert variant={outcome.skipped.length ? 'warning' : 'success'} data-testid="import-result">
        {t(xm.transfer.result, {
          created: t(pluralForm(xm.transfer.resultCreated, outcome.created), {
            created: outcome.created,
          }),
          skipped: t(pluralForm(xm.transfer.resultSkipped, outcome.skipped.length), {
            skipped: outcome.skipped.length,
          }),
        })}
      </Alert>
      {outcome.skipped.length > 0 && (
        <>
          <h3 className="h6">{xm.transfer.skippedTitle}</h3>
          <Table size="sm" responsive data-testid="import-skipped">
            <thead>
              <tr>
                <th scope="col">{xm.transfer.row}</th>
                <th scope="col">{xm.transfer.code}</th>
                <th scope="col">{xm.transfer.reason}</th>
              </tr>
            </thead>
            <tbody>
              {outcome.skipped.map((s) => (
                <tr key={s.row}>
                  <td>{s.row}</td>
                  <td>{s.code}</td>
                  <td>{skippedReason(s)}</td>
                </tr>
              ))}
            </tbody>
          </Table>
          <Button variant="outline-secondary" onClick={download}>
            {xm.transfer.downloadSkipped}
          </Button>
        </>
      )}
    </>
  );
}
