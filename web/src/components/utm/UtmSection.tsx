import { UTM_FIELDS, UTM_NAME_MAX, UTM_VALUE_MAX, utmParam, type UtmField } from '@shared/utm';
import { useEffect, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import InputGroup from 'react-bootstrap/InputGroup';
import { inSpace, utmApi, type UtmTemplate } from '../../api/utm';
import { pluralForm } from '../../i18n/plural';
import { useUtmT } from '../../i18n/utm-text';
import { errorText } from '../../lib/errors';
import { readUtm, templateValues, utmCount, writeUtm } from '../../lib/utm';
import { roleMayWrite } from '@shared/teams';
import { useSnapshot } from 'valtio';
import { auth, isAdmin } from '../../state/auth';
import { createTeamId, space } from '../../state/space';
import { toast } from '../../state/toasts';
import { FoldingSection } from '../FoldingSection';
import { UtmTemplates } from './UtmTemplates';

export interface UtmSectionProps {
  /** The ids' prefix (`create`, `edit`). */
  idPrefix: string;
  /** The target URL as the form holds it: the one truth of the five values. */
  url: string;
  onUrl: (url: string) => void;
  /** The space whose templates are offered and where a new one is saved (null: the caller's own). */
  team: string | null;
}

/** What the short's form (ShortFields) hands over: its mode, values and the edited short's team. */
export interface UtmSlotProps {
  mode: 'create' | 'edit';
  values: { url: string };
  onChange: (change: { url: string }) => void;
  tagsTeam?: string | null;
}

/**
 * The section as ShortFields places it below the target URL (the lazy chunk's entry, so the
 * form's own code stays small): the create form offers the chosen space's templates, the edit
 * dialog the short's space's.
 */
export default function UtmSlot({ mode, values, onChange, tagsTeam }: UtmSlotProps) {
  return (
    <UtmSection
      idPrefix={mode}
      url={values.url}
      onUrl={(url) => onChange({ url })}
      team={mode === 'create' ? createTeamId() : (tagsTeam ?? null)}
    />
  );
}

/**
 * 'UTM-Parameter' in the short's create and edit forms (logged in; a lazy chunk): the five
 * `utm_*` values of the target URL as fields (read from the URL, written into it: lib/utm.ts),
 * a template of the space applied in one choice, the values saved as a template, and the space's
 * templates listed and deleted ('Vorlagen verwalten').
 * Folded until opened; folded, it says how many values the URL carries.
 */
export function UtmSection({ idPrefix, url, onUrl, team }: UtmSectionProps) {
  const { um, t } = useUtmT();
  const values = readUtm(url);
  const count = utmCount(values);
  const [open, setOpen] = useState(false);
  const [templates, setTemplates] = useState<UtmTemplate[] | null>(null);
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);
  const [managing, setManaging] = useState(false);
  const sp = useSnapshot(space);
  const a = useSnapshot(auth);
  const id = `${idPrefix}-utm`;
  // Own templates are the caller's to delete; a team's, its owners' and editors' (and admins').
  const mayDelete =
    team === null ||
    (a.user !== null && isAdmin(a.user)) ||
    roleMayWrite(sp.teams?.find((x) => x.id === team)?.role);

  // The templates, once the section is first opened.
  useEffect(() => {
    if (!open || templates !== null) return;
    let live = true;
    utmApi
      .list()
      .then((all) => live && setTemplates(all))
      .catch((err: unknown) => {
        if (!live) return;
        setTemplates([]);
        toast.error(errorText(err, um.utm.loadFailed));
      });
    return () => {
      live = false;
    };
  }, [open, templates, um.utm.loadFailed]);

  const offered = inSpace(templates ?? [], team);

  const set = (f: UtmField, v: string) => {
    const next = writeUtm(url, { [f]: v });
    if (next !== null) onUrl(next);
  };

  const apply = (templateId: string) => {
    const tpl = offered.find((x) => x.id === templateId);
    const next = tpl && writeUtm(url, templateValues(tpl));
    if (!tpl || !next) return;
    onUrl(next);
    toast.success(t(um.utm.applied, { name: tpl.name }));
  };

  const save = async () => {
    if (!values || !name.trim()) return;
    setBusy(true);
    try {
      const made = await utmApi.create({
        name: name.trim(),
        ...Object.fromEntries(UTM_FIELDS.map((f) => [f, values[f] || null])),
        ...(team ? { team } : {}),
      });
      setTemplates((all) => [...(all ?? []), made]);
      setName('');
      toast.success(t(um.utm.saved, { name: made.name }));
    } catch (err) {
      toast.error(errorText(err, um.utm.saveFailed));
    } finally {
      setBusy(false);
    }
  };

  return (
    <FoldingSection
      id={id}
      label={um.utm.section}
      open={open}
      onToggle={setOpen}
      folded={
        count > 0 && (
          <span className="small text-body-secondary" data-testid="utm-set">
            {t(pluralForm(um.utm.set, count), { n: count })}
          </span>
        )
      }
      data-testid="utm-section"
    >
      <p className="small text-body-secondary">{values ? um.utm.intro : um.utm.needUrl}</p>
      <Form.Group className="mb-3" controlId={`${id}-template`}>
        <Form.Label>{um.utm.template}</Form.Label>
        <Form.Select
          value=""
          disabled={!values || offered.length === 0}
          onChange={(e) => apply(e.target.value)}
          data-testid="utm-template"
        >
          <option value="">
            {templates !== null && offered.length === 0
              ? um.utm.noTemplates
              : um.utm.chooseTemplate}
          </option>
          {offered.map((tpl) => (
            <option key={tpl.id} value={tpl.id}>
              {tpl.name}
            </option>
          ))}
        </Form.Select>
      </Form.Group>
      {UTM_FIELDS.map((f) => (
        <Form.Group key={f} className="mb-2" controlId={`${id}-${f}`}>
          <Form.Label className="font-monospace small mb-1">{utmParam(f)}</Form.Label>
          <Form.Control
            size="sm"
            value={values?.[f] ?? ''}
            disabled={!values}
            maxLength={UTM_VALUE_MAX}
            onChange={(e) => set(f, e.target.value)}
          />
        </Form.Group>
      ))}
      <InputGroup size="sm" className="mt-3">
        <Form.Control
          aria-label={um.utm.saveName}
          placeholder={um.utm.saveName}
          value={name}
          maxLength={UTM_NAME_MAX}
          onChange={(e) => setName(e.target.value)}
          onKeyDown={(e) => {
            // Enter saves the template, never submits the short's form.
            if (e.key !== 'Enter') return;
            e.preventDefault();
            void save();
          }}
          data-testid="utm-save-name"
        />
        <Button
          variant="outline-primary"
          disabled={busy || !name.trim() || count === 0}
          onClick={() => void save()}
        >
          {um.utm.save}
        </Button>
      </InputGroup>
      <Button
        variant="link"
        size="sm"
        className="px-0 mt-2"
        aria-expanded={managing}
        aria-controls={`${id}-manage`}
        onClick={() => setManaging(!managing)}
      >
        {um.utm.manage.toggle}
      </Button>
      <div id={`${id}-manage`} hidden={!managing}>
        {managing && (
          <UtmTemplates
            templates={offered}
            mayDelete={mayDelete}
            onDeleted={(gone) => setTemplates((all) => (all ?? []).filter((x) => x.id !== gone))}
          />
        )}
      </div>
    </FoldingSection>
  );
}
