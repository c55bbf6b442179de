import { useState, type FormEvent } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import { useSnapshot } from 'valtio';
import { useSaveEntity } from '../../api/queries/admin';
import { useT } from '../../i18n/context';
import {
  cellText,
  rowId,
  toBody,
  toForm,
  type AdminEntity,
  type AdminField,
  type FormValue,
} from '../../lib/admin';
import { errorText, fieldErrorTexts } from '../../lib/errors';
import { admin, closeEntityDialog } from '../../state/admin';
import { toast } from '../../state/toasts';
import { cellLabels, entityLabel, fieldLabel } from './labels';

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
  const { msg } = useT();
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
          {(field.nullable || value === '') && <option value="">{msg.admin.emptyOption}</option>}
          {(field.values ?? []).map((v) => (
            <option key={v} value={v}>
              {msg.report.types[v as keyof typeof msg.report.types] ?? msg.admin.values[v] ?? v}
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
          placeholder={field.nullable ? msg.admin.emptyOption : undefined}
          onChange={(e) => onChange(e.target.value)}
        />
      )}
      <Form.Text>{field.description}</Form.Text>
      <Form.Control.Feedback type="invalid">{error}</Form.Control.Feedback>
    </Form.Group>
  );
}

/** The edit dialog of the admin tables (its state: admin.entityDialog). */
export function EntityDialog({ entities }: { entities: readonly AdminEntity[] }) {
  const { msg, t } = useT();
  const d = useSnapshot(admin).entityDialog;
  const entity = entities.find((e) => e.name === d.entity) ?? null;
  const row = d.type === 'create' ? null : d.edit;
  const [form, setForm] = useState<Record<string, FormValue>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [problem, setProblem] = useState<string | null>(null);
  const save = useSaveEntity();

  // Each opening starts from the row as it is (or an empty form).
  const [filledFor, setFilledFor] = useState(0);
  if (d.open && entity && filledFor !== d.seq) {
    setFilledFor(d.seq);
    setForm(toForm(entity, row));
    setErrors({});
    setProblem(null);
  }

  if (!entity) return null;
  const creating = d.type === 'create';

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!entity) return;
    const result = toBody(entity, form, row, msg.admin);
    if (!result.ok) return setErrors(result.errors);
    setErrors({});
    if (!creating && Object.keys(result.body).length === 0) {
      toast.info(msg.admin.nothingChanged);
      return closeEntityDialog();
    }
    const id = row ? rowId(entity, row) : crypto.randomUUID();
    try {
      await save.mutateAsync({
        params: { path: { entity: entity.name, id } },
        body: result.body,
      });
      toast.success(creating ? msg.admin.created : msg.admin.saved);
      closeEntityDialog();
    } catch (err) {
      const fields = fieldErrorTexts(err);
      setErrors({ ...fields });
      // Field errors show at their fields; the alert then only says that nothing was saved.
      setProblem(
        Object.keys(fields).length > 0
          ? msg.admin.saveFailed
          : errorText(err, msg.admin.saveFailed, msg.admin.errors),
      );
    }
  }

  const label = entityLabel(entity.name);
  const readOnly = creating ? [] : entity.fields.filter((f) => !f.editable);
  return (
    <Modal show={d.open} onHide={closeEntityDialog} size="lg" aria-labelledby="admin-edit-title">
      <Form onSubmit={(e) => void submit(e)} noValidate>
        <Modal.Header closeButton closeLabel={msg.admin.close}>
          <Modal.Title id="admin-edit-title">
            {t(creating ? msg.admin.createTitle : msg.admin.editTitle, { entity: label })}
          </Modal.Title>
        </Modal.Header>
        <Modal.Body>
          {problem && <Alert variant="danger">{problem}</Alert>}
          {entity.fields
            .filter((f) => f.editable)
            .map((f) => (
              <FieldInput
                key={f.name}
                field={f}
                value={form[f.name] ?? ''}
                error={errors[f.name]}
                onChange={(v) => setForm({ ...form, [f.name]: v })}
              />
            ))}
          {readOnly.length > 0 && row && (
            <>
              <h3 className="h6 mt-4">{msg.admin.readOnly}</h3>
              <dl className="row small mb-0">
                {readOnly.map((f) => (
                  <div key={f.name} className="col-12 d-flex gap-2">
                    <dt className="fw-semibold">{fieldLabel(f.name)}:</dt>
                    <dd className="mb-1 text-break">{cellText(f, row[f.name], cellLabels(msg))}</dd>
                  </div>
                ))}
              </dl>
            </>
          )}
        </Modal.Body>
        <Modal.Footer>
          <Button variant="outline-secondary" onClick={closeEntityDialog}>
            {msg.admin.cancel}
          </Button>
          <Button type="submit" variant="primary" disabled={save.isPending}>
            {msg.admin.save}
          </Button>
        </Modal.Footer>
      </Form>
    </Modal>
  );
}
