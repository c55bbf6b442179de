import Alert from 'react-bootstrap/Alert';
import Table from 'react-bootstrap/Table';
import { importRefusal, mapColumns, urlColumnNames, type ParsedImport } from '../../../lib/import';
import { useTransferT } from '../../../i18n/transfer-text';
import { pluralForm } from '../../../i18n/plural';

const PREVIEW_ROWS = 5;

export function Preview({ parsed }: { parsed: ParsedImport }) {
  const { msg, t, xm } = useTransferT();
  const mapping = mapColumns(parsed.headers);
  const hasUrl = mapping.some(([, f]) => f === 'url');
  const refusal = importRefusal(parsed);
  return (
    <>
      <p>{t(pluralForm(xm.transfer.rows, parsed.rows.length), { count: parsed.rows.length })}</p>
      {!hasUrl && (
        <Alert variant="danger">{t(xm.transfer.noUrlColumn, { names: urlColumnNames() })}</Alert>
      )}
      {refusal && <Alert variant="danger">{refusal}</Alert>}
      <h3 className="h6">{xm.transfer.mapping}</h3>
      <Table size="sm" data-testid="import-mapping">
        <thead>
          <tr>
            <th scope="col">{xm.transfer.column}</th>
            <th scope="col">{xm.transfer.becomes}</th>
          </tr>
        </thead>
        <tbody>
          {mapping.map(([column, field]) => (
            <tr key={column}>
              <td>
                <code>{column}</code>
              </td>
              <td>
                {field ? (
                  msg.fields[field]
                ) : (
                  <span className="text-body-secondary">{xm.transfer.ignored}</span>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </Table>
      <h3 className="h6">{xm.transfer.preview}</h3>
      <Table size="sm" responsive data-testid="import-preview">
        <thead>
          <tr>
            {parsed.headers.map((h) => (
              <th key={h} scope="col">
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {parsed.rows.slice(0, PREVIEW_ROWS).map((row, i) => (
            <tr key={i}>
              {parsed.headers.map((h) => (
                <td key={h} className="text-break">
                  {row[h]}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </Table>
    </>
  );
}
