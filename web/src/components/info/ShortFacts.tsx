import type { ReactNode } from 'react';
import Form from 'react-bootstrap/Form';
import type { Short } from '../../api/client';
import { de } from '../../i18n/de';
import { formatDateTime } from '../../lib/expiry';
import { displayUrl } from '../../lib/idn';
import { usesText } from '../../lib/uses';

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

/** The short's facts as read-only fields (its uses only for its owner, who is shown them). */
export function ShortFacts({ short }: { short: Short }) {
  const uses = usesText(short);
  return (
    <>
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
      {uses !== undefined && <Field id="uses" label={de.info.fieldUses} value={uses} />}
      <Field id="created" label={de.info.fieldCreatedAt} value={formatDateTime(short.createdAt)} />
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
    </>
  );
}
