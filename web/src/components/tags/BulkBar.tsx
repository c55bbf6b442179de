import { MAX_TAGS } from '@shared/tags';
import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent, type ReactNode } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import type { Short } from '../../api/client';
import { invalidateShorts } from '../../api/queries/shorts';
import { pluralForm } from '../../i18n/plural';
import { useTagsT } from '../../i18n/tags-text';
import { errorText } from '../../lib/errors';
import { formatDateTime, parseExpiry } from '../../lib/expiry';
import {
  bulkRequest,
  forgetTagSuggestions,
  problemKey,
  refusedIds,
  tagsApi,
  type BulkAction,
} from '../../lib/tags-api';
import { toast } from '../../state/toasts';
import { ConfirmDialog } from '../ConfirmDialog';
import { DeleteIcon } from '../shorts/icons';
import type { MoveTarget } from '../teams/MoveDialog';
import { useResolved } from '../useResolved';
import { TagInput } from './TagInput';

/** The bulk bar's dialogs (deleting asks in the confirmation dialog). */
export type BulkDialogKind = Exclude<BulkAction['kind'], 'delete'>;

export interface BulkBarProps {
  /** The selected shorts' ids (1 to a page's 250). */
  ids: readonly string[];
  /** The rows on screen: the codes of refused ids are named by them. */
  rows: readonly Short[];
  /** The list's space: its tags are suggested. */
  team: string | null;
  /** Where the shorts may move (lib: moveTargets); none: no move button. */
  targets: readonly MoveTarget[];
  /** The selection is over (after a success, or 'Auswahl aufheben'). */
  onClear: () => void;
  /** A refusal named these ids: the page takes them out of the selection. */
  onRefused?: (ids: string[]) => void;
}

/** At most this many codes are named in a refusal. */
const NAMED_CODES = 10;

/**
 * The bar over the own list while shorts are selected: add or remove tags, set the expiry (as
 * typed, understood like the create form's), set max uses, move into a team, delete. Each action is
 * one `POST /api/code/bulk` (all or nothing); a success says how many changed and reloads the list,
 * a refusal (403) names the shorts the caller may not change and takes them out of the selection.
 */
export function BulkBar({ ids, rows, team, targets, onClear, onRefused }: BulkBarProps) {
  const { msg, t, tm } = useTagsT();
  const client = useQueryClient();
  const [dialog, setDialog] = useState<BulkDialogKind | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const n = ids.length;

  function codesOf(refused: readonly string[]): string {
    const byId = new Map(rows.map((r) => [r.id, r.code]));
    const named = refused.slice(0, NAMED_CODES).map((id) => byId.get(id) ?? id);
    return refused.length > NAMED_CODES ? `${named.join(', ')}, …` : named.join(', ');
  }

  function failure(err: unknown, action: BulkAction): string {
    const refused = refusedIds(err);
    if (refused.length > 0) {
      onRefused?.(refused);
      return t(pluralForm(tm.tags.bulk.refused, refused.length), {
        n: refused.length,
        codes: codesOf(refused),
      });
    }
    const key = problemKey(err);
    if (key === 'too_many_tags') return t(tm.tags.bulk.tooManyTags, { max: MAX_TAGS });
    if (key === 'tag_invalid') return tm.tags.bulk.tagInvalid;
    return errorText(
      err,
      action.kind === 'delete' ? msg.shorts.bulkDeleteFailed : tm.tags.bulk.failed,
    );
  }

  /** Runs one action; true when it succeeded. */
  async function run(action: BulkAction): Promise<boolean> {
    setBusy(true);
    try {
      const result = await tagsApi.bulk(bulkRequest(ids, action));
      if (action.kind === 'delete') {
        // The specification's words for deleting several (one: the table's for one).
        toast.success(result.deleted.length === 1 ? msg.shorts.deleted : msg.shorts.bulkDeleted);
      } else {
        const changed = result.changed.length;
        toast.success(t(pluralForm(tm.tags.bulk.changed, changed), { n: changed }));
      }
      forgetTagSuggestions();
      void invalidateShorts(client);
      onClear();
      return true;
    } catch (err) {
      toast.error(failure(err, action));
      return false;
    } finally {
      setBusy(false);
    }
  }

  const button = (kind: BulkDialogKind, label: string) => (
    <Button
      variant="outline-primary"
      size="sm"
      onClick={() => setDialog(kind)}
      data-bulk={kind}
      disabled={busy}
    >
      {label}
    </Button>
  );

  return (
    <div
      role="toolbar"
      aria-label={tm.tags.bulk.label}
      className="d-flex flex-wrap align-items-center gap-2 border rounded p-2 mb-3 bg-body-tertiary"
      data-testid="bulk-bar"
    >
      <span className="fw-semibold me-1" data-testid="bulk-count" aria-live="polite">
        {t(pluralForm(tm.tags.bulk.selected, n), { n })}
      </span>
      {button('addTags', tm.tags.bulk.addTags)}
      {button('removeTags', tm.tags.bulk.removeTags)}
      {button('expireAt', tm.tags.bulk.expireAt)}
      {button('maxUses', tm.tags.bulk.maxUses)}
      {targets.length > 0 && button('team', tm.tags.bulk.team)}
      <Button
        variant="danger"
        size="sm"
        className="d-inline-flex align-items-center gap-1"
        onClick={() => setConfirming(true)}
        disabled={busy}
      >
        <DeleteIcon />
        {t(msg.shorts.deleteSelected, { count: n })}
      </Button>
      <Button variant="link" size="sm" onClick={onClear}>
        {tm.tags.bulk.clear}
      </Button>

      {dialog && (
        <BulkDialog
          kind={dialog}
          count={n}
          team={team}
          targets={targets}
          busy={busy}
          onApply={async (action) => {
            if (await run(action)) setDialog(null);
          }}
          onClose={() => setDialog(null)}
        />
      )}
      <ConfirmDialog
        id="confirm-bulk-delete"
        show={confirming}
        title={t(pluralForm(tm.tags.bulk.confirmTitle, n), { n })}
        confirmLabel={msg.shorts.confirm}
        cancelLabel={msg.shorts.cancel}
        busy={busy}
        onConfirm={() => {
          void run({ kind: 'delete' }).then(() => setConfirming(false));
        }}
        onCancel={() => setConfirming(false)}
      >
        {t(pluralForm(tm.tags.bulk.confirmText, n), { n })}
      </ConfirmDialog>
    </div>
  );
}

interface BulkDialogProps {
  kind: BulkDialogKind;
  count: number;
  team: string | null;
  targets: readonly MoveTarget[];
  busy: boolean;
  onApply: (action: BulkAction) => Promise<void>;
  onClose: () => void;
}

/** One action's small form: its input, what it applies to, Übernehmen. */
function BulkDialog({ kind, count, team, targets, busy, onApply, onClose }: BulkDialogProps) {
  const { msg, t, tm, lang } = useTagsT();
  const [tags, setTags] = useState<string[]>([]);
  const [expiry, setExpiry] = useState('');
  const [maxUses, setMaxUses] = useState('');
  const [target, setTarget] = useState(targets[0]?.id ?? '');
  const expireAt = useResolved(() => parseExpiry(expiry), [expiry, lang], null);
  const understood = !expiry.trim() || expireAt !== null;

  const titles: Record<BulkDialogKind, string> = {
    addTags: tm.tags.bulk.addTags,
    removeTags: tm.tags.bulk.removeTags,
    expireAt: tm.tags.bulk.expireAt,
    maxUses: tm.tags.bulk.maxUses,
    team: tm.tags.bulk.team,
  };

  /** The action of the form as filled in; null while it is not ready. */
  function action(): BulkAction | null {
    switch (kind) {
      case 'addTags':
      case 'removeTags':
        return tags.length > 0 ? { kind, tags } : null;
      case 'expireAt':
        return understood ? { kind, expireAt: expiry.trim() ? expireAt : null } : null;
      case 'maxUses': {
        if (!maxUses.trim()) return { kind, maxUses: null };
        const uses = Number(maxUses);
        return Number.isInteger(uses) && uses >= 1 ? { kind, maxUses: uses } : null;
      }
      case 'team': {
        const to = targets.find((x) => (x.id ?? '') === target);
        return to ? { kind, team: to.id } : null;
      }
    }
  }
  const ready = action();

  function submit(e: FormEvent) {
    e.preventDefault();
    if (ready) void onApply(ready);
  }

  let body: ReactNode;
  switch (kind) {
    case 'addTags':
    case 'removeTags':
      body = (
        <>
          <Form.Label htmlFor="bulk-tags">{tm.tags.bulk.tags}</Form.Label>
          <TagInput id="bulk-tags" value={tags} onChange={setTags} team={team} />
        </>
      );
      break;
    case 'expireAt':
      body = (
        <Form.Group controlId="bulk-expiry">
          <Form.Label>{msg.fields.expireAt}</Form.Label>
          <Form.Control
            value={expiry}
            onChange={(e) => setExpiry(e.target.value)}
            placeholder={msg.create.expiryPlaceholder}
            isInvalid={!understood}
            aria-describedby="bulk-expiry-help"
          />
          <Form.Text id="bulk-expiry-help" className={understood ? undefined : 'text-danger'}>
            {!expiry.trim()
              ? tm.tags.bulk.expiryHint
              : expireAt
                ? t(msg.create.understoodAs, { date: formatDateTime(expireAt) })
                : msg.edit.expiryNotUnderstood}
          </Form.Text>
        </Form.Group>
      );
      break;
    case 'maxUses':
      body = (
        <Form.Group controlId="bulk-max-uses">
          <Form.Label>{msg.fields.maxUses}</Form.Label>
          <Form.Control
            type="number"
            min={1}
            step={1}
            inputMode="numeric"
            value={maxUses}
            onChange={(e) => setMaxUses(e.target.value)}
            placeholder={msg.create.unlimited}
            aria-describedby="bulk-max-uses-help"
          />
          <Form.Text id="bulk-max-uses-help">{tm.tags.bulk.maxUsesHint}</Form.Text>
        </Form.Group>
      );
      break;
    case 'team':
      body = (
        <Form.Group controlId="bulk-team">
          <Form.Label>{tm.tags.bulk.target}</Form.Label>
          <Form.Select value={target} onChange={(e) => setTarget(e.target.value)}>
            {targets.map((x) => (
              <option key={x.id ?? ''} value={x.id ?? ''}>
                {x.name}
              </option>
            ))}
          </Form.Select>
        </Form.Group>
      );
      break;
  }

  return (
    <Modal show onHide={onClose} aria-labelledby="bulk-title">
      <Form onSubmit={submit} data-testid="bulk-form" data-kind={kind}>
        <Modal.Header closeButton closeLabel={tm.tags.bulk.cancel}>
          <Modal.Title id="bulk-title">{titles[kind]}</Modal.Title>
        </Modal.Header>
        <Modal.Body>
          <p className="text-body-secondary">
            {t(pluralForm(tm.tags.bulk.affects, count), { n: count })}
          </p>
          {body}
        </Modal.Body>
        <Modal.Footer>
          <Button variant="secondary" onClick={onClose}>
            {tm.tags.bulk.cancel}
          </Button>
          <Button type="submit" disabled={busy || ready === null}>
            {tm.tags.bulk.apply}
          </Button>
        </Modal.Footer>
      </Form>
    </Modal>
  );
}
