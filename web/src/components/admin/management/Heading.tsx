import Button from 'react-bootstrap/Button';
import { useT } from '../../../i18n/context';
import { t, type Messages } from '../../../i18n/text';
import { errorText } from '../../../lib/errors';

/** The title of a management section, with 'Aktualisieren' when the section can load again. */
export function Heading({
  id,
  title,
  onReload,
}: {
  id: string;
  title: string;
  onReload?: () => void;
}) {
  const { msg } = useT();
  return (
    <div className="d-flex align-items-center gap-2 mb-3">
      <h2 id={id} className="h4 mb-0 me-auto">
        {title}
      </h2>
      {onReload && (
        <Button size="sm" variant="outline-secondary" onClick={onReload}>
          {msg.admin.reload}
        </Button>
      )}
    </div>
  );
}

/** 'Die Daten konnten nicht geladen werden: …' with the server's detail (or the unavailable text). */
export function loadError(msg: Messages, err: unknown): string {
  return t(msg.admin.loadError, { detail: errorText(err, undefined, msg.admin.errors) });
}
