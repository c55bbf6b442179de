import { UTM_FIELDS, utmParam } from '@shared/utm';
import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import { utmApi, type UtmTemplate } from '../../api/utm';
import { useUtmT } from '../../i18n/utm-text';
import { errorText } from '../../lib/errors';
import { toast } from '../../state/toasts';

export interface UtmTemplatesProps {
  /** The space's templates. */
  templates: readonly UtmTemplate[];
  /** Whether the caller may delete them (his own space; a team's owners and editors). */
  mayDelete: boolean;
  onDeleted: (id: string) => void;
}

/**
 * The templates of a space as the UTM section manages them: each with its values, and delete
 * (asked in place). Templates are made with 'Als Vorlage speichern'.
 */
export function UtmTemplates({ templates, mayDelete, onDeleted }: UtmTemplatesProps) {
  const { um, t } = useUtmT();
  const [asked, setAsked] = useState<UtmTemplate | null>(null);
  const [busy, setBusy] = useState(false);

  const remove = async (tpl: UtmTemplate) => {
    setBusy(true);
    try {
      await utmApi.remove(tpl.id);
      onDeleted(tpl.id);
      toast.success(um.utm.manage.deleted);
    } catch (err) {
      toast.error(
        errorText(err, um.utm.manage.deleteFailed, { entity_not_exists: um.utm.manage.gone }),
      );
    } finally {
      setBusy(false);
      setAsked(null);
    }
  };

  return (
    <>
      {templates.length === 0 ? (
        <p className="small mb-0">{um.utm.noTemplates}</p>
      ) : (
        <ul className="list-unstyled mb-0" aria-label={um.utm.manage.title}>
          {templates.map((tpl) => (
            <li
              key={tpl.id}
              className="d-flex align-items-start gap-2 border-top py-2"
              data-testid="utm-template-item"
            >
              <div className="flex-grow-1" style={{ minWidth: 0 }}>
                <div className="fw-semibold text-break">{tpl.name}</div>
                <div className="small font-monospace text-break text-body-secondary">
                  {UTM_FIELDS.filter((f) => tpl[f])
                    .map((f) => `${utmParam(f)}=${tpl[f]}`)
                    .join(' · ')}
                </div>
              </div>
              {mayDelete &&
                (asked?.id === tpl.id ? (
                  // Asked in place (a dialog inside the short's dialog would stack two modals).
                  <div className="d-flex flex-wrap align-items-center gap-1" role="group">
                    <span className="small">{t(um.utm.manage.confirm, { name: tpl.name })}</span>
                    <Button
                      size="sm"
                      variant="danger"
                      disabled={busy}
                      onClick={() => void remove(tpl)}
                    >
                      {um.utm.manage.delete}
                    </Button>
                    <Button size="sm" variant="secondary" onClick={() => setAsked(null)}>
                      {um.utm.manage.cancel}
                    </Button>
                  </div>
                ) : (
                  <Button
                    size="sm"
                    variant="outline-danger"
                    aria-label={t(um.utm.manage.deleteLabel, { name: tpl.name })}
                    onClick={() => setAsked(tpl)}
                  >
                    {um.utm.manage.delete}
                  </Button>
                ))}
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
