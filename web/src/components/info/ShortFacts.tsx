import type { ReactNode } from 'react';
import Form from 'react-bootstrap/Form';
import type { Short } from '../../api/client';
import { formatDateTime } from '../../lib/expiry';
import { displayUrl } from '../../lib/idn';
import { redirectLines } from '../../lib/rule-summary';
import { usesText } from '../../lib/uses';
import { useT } from '../../i18n/context';

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
  const { msg } = useT();
  if (url === null) return <Field id="url" label={msg.info.fieldUrl} value={msg.info.hiddenUrl} />;
  const shown = displayUrl(url);
  return (
    <Field
      id="url"
      label={msg.info.fieldUrl}
      value={shown.unicode}
      hint={
        shown.punycode && (
          <>
            {msg.info.mixedScripts} <code>{shown.punycode}</code>
          </>
        )
      }
    />
  );
}

/**
 * The owner's redirects in a few words (the rules in order, then the after-expiry target): what
 * the edit dialog sets, readable without opening it. Nothing when there are none (or the caller is
 * not shown them).
 */
function Redirects({ short }: { short: Short }) {
  const { msg } = useT();
  const lines = redirectLines(short);
  if (lines.length === 0) return null;
  return (
    <div className="mb-2 row">
      <div className="col-sm-3 col-form-label" id="field-redirects-label">
        {msg.info.fieldRedirects}
      </div>
      <div className="col-sm-9">
        <ul
          className="list-unstyled mb-0 py-sm-2"
          aria-labelledby="field-redirects-label"
          data-testid="short-redirects"
        >
          {lines.map((line, i) => (
            <li key={i} className="text-break">
              {line.when} → <span title={line.url}>{line.target}</span>
            </li>
          ))}
        </ul>
      </div>
    </div>
  );
}

/** The short's facts as read-only fields (its uses only for its owner, who is shown them). */
export function ShortFacts({ short }: { short: Short }) {
  const { msg } = useT();
  const uses = usesText(short);
  return (
    <>
      <Field id="code" label={msg.info.fieldCode} value={short.code} />
      {short.name && <Field id="name" label={msg.info.fieldName} value={short.name} />}
      <UrlField url={short.url} />
      <Redirects short={short} />
      <Field
        id="password"
        label={msg.info.fieldPassword}
        value={short.hasPassword ? msg.info.yes : msg.info.no}
      />
      <Field
        id="maxuses"
        label={msg.info.fieldMaxUses}
        value={short.maxUses == null ? msg.create.unlimited : String(short.maxUses)}
      />
      {uses !== undefined && <Field id="uses" label={msg.info.fieldUses} value={uses} />}
      <Field id="created" label={msg.info.fieldCreatedAt} value={formatDateTime(short.createdAt)} />
      <Field
        id="expire"
        label={msg.info.fieldExpireAt}
        value={short.expireAt ? formatDateTime(short.expireAt) : msg.info.never}
      />
      <Field
        id="owner"
        label={msg.info.fieldOwner}
        value={short.owner?.username ?? msg.info.anonymous}
      />
    </>
  );
}
