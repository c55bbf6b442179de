import { UTM_FIELDS, utmParam } from '@shared/utm';
import { useEffect, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Spinner from 'react-bootstrap/Spinner';
import { useSnapshot } from 'valtio';
import { utmApi, type UtmTemplate } from '../../api/utm';
import { useUtmT } from '../../i18n/utm-text';
import { errorText } from '../../lib/errors';
import { isAdmin, auth } from '../../state/auth';
import { space } from '../../state/space';
import { toast } from '../../state/toasts';
import { roleMayWrite } from '@shared/teams';
import { ConfirmDialog } from '../ConfirmDialog';

/**
 * The account's UTM templates (CONTRACT "Marketing links", bullet "UTM"): the own ones and the
 * teams', each with its values and its space, and delete (own ones; a team's for its owners and
 * editors). Templates are made in the short's form ('Als Vorlage speichern').
 */
export function UtmTemplatesPanel() {
  const { um, t } = useUtmT();
  const sp = useSnapshot(space);
  const a = useSnapshot(auth);
  const [list, setList] = useState<UtmTemplate[] | null>(null);
  const [failed, setFailed] = useState<unknown>(null);
  const [asked, setAsked] = useState<UtmTemplate | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let live = true;
    utmApi
      .list()
      .then((all) => live && setList(all))
      .catch((err: unknown) => live && setFailed(err ?? new Error('failed')));
    return () => {
      live = false;
    };
  }, []);

  const mayDelete = (tpl: UtmTemplate) =>
    !tpl.team ||
    (a.user !== null && isAdmin(a.user)) ||
    roleMayWrite(sp.teams?.find((x) => x.id === tpl.team?.id)?.role);

  const remove = async (tpl: UtmTemplate) => {
    setBusy(true);
    try {
      await utmApi.remove(tpl.id);
      setList((all) => (all ?? []).filter((x) => x.id !== tpl.id));
      toast.success(um.utm.panel.deleted);
    } catch (err) {
      toast.error(errorText(err, um.utm.panel.deleteFailed));
    } finally {
      setBusy(false);
      setAsked(null);
    }
  };

  return (
    <Card className="mb-4" data-testid="utm-templates-panel">
      <Card.Body>
        <h2 className="h4" id="utm-templates-title">
          {um.utm.panel.title}
        </h2>
        <p className="text-body-secondary">{um.utm.panel.intro}</p>
        {failed !== null ? (
          <p className="text-danger" role="alert">
            {errorText(failed, um.utm.loadFailed)}
          </p>
        ) : list === null ? (
          <Spinner animation="border" size="sm" role="status" />
        ) : list.length === 0 ? (
          <p className="mb-0">{um.utm.panel.empty}</p>
        ) : (
          <ul className="list-unstyled mb-0" aria-labelledby="utm-templates-title">
            {list.map((tpl) => (
              <li
                key={tpl.id}
                className="d-flex flex-wrap align-items-start gap-2 border-top py-2"
                data-testid="utm-template-item"
              >
                <div className="flex-grow-1" style={{ minWidth: 0 }}>
                  <div className="fw-semibold text-break">{tpl.name}</div>
                  <div className="small text-body-secondary">
                    {um.utm.panel.space}: {tpl.team ? tpl.team.name : um.utm.panel.personal}
                  </div>
                  <div className="small font-monospace text-break">
                    {UTM_FIELDS.filter((f) => tpl[f])
                      .map((f) => `${utmParam(f)}=${tpl[f]}`)
                      .join(' · ')}
                  </div>
                </div>
                {mayDelete(tpl) && (
                  <Button
                    size="sm"
                    variant="outline-danger"
                    aria-label={t(um.utm.panel.deleteLabel, { name: tpl.name })}
                    onClick={() => setAsked(tpl)}
                  >
                    {um.utm.panel.delete}
                  </Button>
                )}
              </li>
            ))}
          </ul>
        )}
      </Card.Body>
      <ConfirmDialog
        show={asked !== null}
        id="utm-template-delete"
        title={um.utm.panel.delete}
        confirmLabel={um.utm.panel.delete}
        cancelLabel={um.utm.panel.cancel}
        busy={busy}
        onConfirm={() => asked && void remove(asked)}
        onCancel={() => setAsked(null)}
      >
        {asked && t(um.utm.panel.confirm, { name: asked.name })}
      </ConfirmDialog>
    </Card>
  );
}
