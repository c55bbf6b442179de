import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import { roleMayWrite } from '@shared/teams';
import type { Short } from '../../api/client';
import { invalidateShorts } from '../../api/queries/shorts';
import { teamsApi } from '../../api/teams';
import { useT } from '../../i18n/context';
import { errorText } from '../../lib/errors';
import type { SpaceTeam } from '../../state/space';
import { toast } from '../../state/toasts';

/** A space a short can go to: the own one (id null) or a team. */
export interface MoveTarget {
  id: string | null;
  name: string;
}

/**
 * The spaces a short of space `from` (null: the own one) may move to: the own space and every
 * team where the caller is owner or editor, without the one it is in.
 */
export function moveTargets(
  from: string | null,
  teams: readonly SpaceTeam[] | null,
  personal: string,
): MoveTarget[] {
  const targets: MoveTarget[] = from === null ? [] : [{ id: null, name: personal }];
  for (const t of teams ?? []) {
    if (t.id !== from && roleMayWrite(t.role)) targets.push({ id: t.id, name: t.name });
  }
  return targets;
}

/** 'Verschieben nach …': moves a short into another space (PATCH /api/code/{id} {team}). */
export function MoveDialog({
  short,
  targets,
  onClose,
}: {
  short: Short | null;
  targets: readonly MoveTarget[];
  onClose: () => void;
}) {
  const { msg, t } = useT();
  const client = useQueryClient();
  const [target, setTarget] = useState<string>('');
  const [busy, setBusy] = useState(false);
  const chosen = targets.find((x) => (x.id ?? '') === target) ?? targets[0];

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!short || !chosen) return;
    setBusy(true);
    try {
      await teamsApi.moveShort(short.id, chosen.id);
      toast.success(t(msg.move.moved, { space: chosen.name }));
      void invalidateShorts(client);
      onClose();
    } catch (err) {
      toast.error(errorText(err, msg.move.failed));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal show={short !== null} onHide={onClose} aria-labelledby="move-title">
      <Form onSubmit={(e) => void submit(e)} data-testid="move-form">
        <Modal.Header closeButton closeLabel={msg.move.cancel}>
          <Modal.Title id="move-title">{msg.move.title}</Modal.Title>
        </Modal.Header>
        <Modal.Body>
          {short && <p>{t(msg.move.text, { code: short.code })}</p>}
          {targets.length === 0 ? (
            <Alert variant="info" className="mb-0">
              {msg.move.nowhere}
            </Alert>
          ) : (
            <Form.Group controlId="move-target">
              <Form.Label>{msg.move.target}</Form.Label>
              <Form.Select
                value={chosen ? (chosen.id ?? '') : ''}
                onChange={(e) => setTarget(e.target.value)}
              >
                {targets.map((x) => (
                  <option key={x.id ?? ''} value={x.id ?? ''}>
                    {x.name}
                  </option>
                ))}
              </Form.Select>
            </Form.Group>
          )}
        </Modal.Body>
        <Modal.Footer>
          <Button variant="secondary" onClick={onClose}>
            {msg.move.cancel}
          </Button>
          <Button type="submit" disabled={busy || !chosen}>
            {msg.move.submit}
          </Button>
        </Modal.Footer>
      </Form>
    </Modal>
  );
}
