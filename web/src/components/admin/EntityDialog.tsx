import { useEffect, useState, type FormEvent } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import { useSnapshot } from 'valtio';
import { api, unwrap } from '../../api/client';
import { de, t } from '../../i18n/de';
import { cellText, rowId, toBody, toForm, type AdminField, type FormValue } from '../../lib/admin';
import { errorDetail } from '../../lib/errors';
import { admin, closeEntityDialog } from '../../state/admin';
import { toast } from '../../state/toasts';
import { entityLabel, fieldLabel } from './EntitySection';

const MESSAGES = {
  required: de.admin.required,
  wholeNumber: de.admin.wholeNumber,
  invalidDate: de.admin.invalidDate,
};

function fieldErrorsOf(err: unknown): Record<string, string> {
  if (err && typeof err === 'object' && 'fieldErrors' in err) {
    const fe = (err as { fieldErrors: unknown }).fieldErrors;
    if (fe && typeof fe === 'object')
      return Object.fromEntries(Object.entries(fe).map(([k, v]) => [k, String(v)]));
  }
  return {};
}

function FieldInput({
  field,
  value,
  error,
  onChange,
}: {
  field: AdminField;
  value: FormValue;
  error?: string;
  onChange: (v: FormValue) => void;
}) {
  const id = `admin-edit-${field.name}`;
  const label = fieldLabel(field.name);
  if (field.type === 'boolean') {
    return (
      <Form.Check
        type="switch"
        id={id}
        className="mb-3"
        label={label}
        checked={Boolean(value)}
        onChange={(e) => onChange(e.currentTarget.checked)}
      />
    );
  }
  if (field.type === 'list') {
    const list = Array.isArray(value) ? value : [];
    return (
      <fieldset className="mb-3">
        <legend className="form-label fs-6">{label}</legend>
        {(field.values ?? []).map((v) => (
          <Form.Check
            key={v}
            id={`${id}-${v}`}
            inline
            label={v}
            checked={list.includes(v)}
            onChange={(e) =>
              onChange(e.currentTarget.checked ? [...list, v] : list.filter((x) => x !== v))
            }
          />
        ))}
        {error && <div className="invalid-feedback d-block">{error}</div>}
      </fieldset>
    );
  }
  return (
    <Form.Group className="mb-3" controlId={id}>
      <Form.Label>{label}</Form.Label>
      {field.type === 'enum' ? (
        <Form.Select
          value={String(value)}
          isInvalid={Boolean(error)}
          onChange={(e) => onChange(e.target.value)}
        >
          {(field.nullable || value === '') && <option value="">{de.admin.emptyOption}</option>}
          {(field.values ?? []).map((v) => (
            <option key={v} value={v}>
              {de.report.types[v as keyof typeof de.report.types] ?? de.admin.values[v] ?? v}
            </option>
          ))}
        </Form.Select>
      ) : (
        <Form.Control
          type={
            field.type === 'number' ? 'number' : field.type === 'date' ? 'datetime-local' : 'text'
          }
          min={field.type === 'number' ? 1 : undefined}
          value={String(value)}
          isInvalid={Boolean(error)}
          placeholder={field.nullable ? de.admin.emptyOption : undefined}
          onChange={(e) => onChange(e.target.value)}
        />
      )}
      <Form.Text>{field.description}</Form.Text>
      <Form.Control.Feedback type="invalid">{error}</Form.Control.Feedback>
    </Form.Group>
  );
}

/** The edit dialog of the admin tables (store: admin.entityDialog). */
export function EntityDialog() {
  const a = useSnapshot(admin);
  const d = a.entityDialog;
  const entity = a.entities.find((e) => e.name === d.entity) ?? null;
  const [form, setForm] = useState<Record<string, FormValue>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (d.open && entity) {
      setForm(toForm(entity as never, d.edit as never));
      setErrors({});
      setProblem(null);
    }
  }, [d.open, d.entity, d.edit]);

  if (!entity) return null;
  const creating = d.type === 'create';
  const row = creating ? null : (admin.entityDialog.edit ?? null);

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!entity) return;
    const result = toBody(entity as never, form, row, MESSAGES);
    if (!result.ok) return setErrors(result.errors);
    setErrors({});
    if (!creating && Object.keys(result.body).length === 0) {
      toast.info(de.admin.nothingChanged);
      return closeEntityDialog();
    }
    const id = row ? rowId(entity as never, row) : crypto.randomUUID();
    setBusy(true);
    try {
      await unwrap(
        api.PUT('/api/admin/entity/{entity}/{id}', {
          params: { path: { entity: entity.name, id } },
          body: result.body,
        }),
      );
      toast.success(creating ? de.admin.created : de.admin.saved);
      closeEntityDialog();
      admin.version++;
    } catch (err) {
      setErrors(fieldErrorsOf(err));
      setProblem(errorDetail(err) ?? de.admin.saveFailed);
    } finally {
      setBusy(false);
    }
  }

  const label = entityLabel(entity.name);
  const readOnly = creating ? [] : entity.fields.filter((f) => !f.editable);
  return (
    <Modal show={d.open} onHide={closeEntityDialog} size="lg" aria-labelledby="admin-edit-title">
      <Form onSubmit={(e) => void submit(e)} noValidate>
        <Modal.Header closeButton closeLabel={de.admin.close}>
          <Modal.Title id="admin-edit-title">
            {t(creating ? de.admin.createTitle : de.admin.editTitle, { entity: label })}
          </Modal.Title>
        </Modal.Header>
        <Modal.Body>
          {problem && <Alert variant="danger">{problem}</Alert>}
          {entity.fields
            .filter((f) => f.editable)
            .map((f) => (
              <FieldInput
                key={f.name}
                field={f as AdminField}
                value={form[f.name] ?? ''}
                error={errors[f.name]}
                onChange={(v) => setForm({ ...form, [f.name]: v })}
              />
            ))}
          {readOnly.length > 0 && row && (
            <>
              <h3 className="h6 mt-4">{de.admin.readOnly}</h3>
              <dl className="row small mb-0">
                {readOnly.map((f) => (
                  <div key={f.name} className="col-12 d-flex gap-2">
                    <dt className="fw-semibold">{fieldLabel(f.name)}:</dt>
                    <dd className="mb-1 text-break">
                      {cellText(f, row[f.name], {
                        yes: de.admin.yes,
                        no: de.admin.no,
                        empty: de.admin.none,
                      })}
                    </dd>
                  </div>
                ))}
              </dl>
            </>
          )}
        </Modal.Body>
        <Modal.Footer>
          <Button variant="outline-secondary" onClick={closeEntityDialog}>
            {de.admin.cancel}
          </Button>
          <Button type="submit" variant="primary" disabled={busy}>
            {de.admin.save}
          </Button>
        </Modal.Footer>
      </Form>
    </Modal>
  );
}
