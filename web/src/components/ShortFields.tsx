import { CODE_MAX_LENGTH, CODE_MIN_LENGTH } from '@shared/limits';
import { SHORT_FIELDS, type ShortFieldName, type ShortFieldSpec } from '@shared/short-fields';
import {
  Fragment,
  lazy,
  Suspense,
  useCallback,
  useState,
  type FormEvent,
  type ReactNode,
} from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import InputGroup from 'react-bootstrap/InputGroup';
import Spinner from 'react-bootstrap/Spinner';
import { useT } from '../i18n/context';
import { pluralForm } from '../i18n/plural';
import { t, type Messages } from '../i18n/text';
import { advancedSetCount, isAdvanced } from '../lib/advanced';
import { exampleExpiryDate, formatDateTime, parseExpiry } from '../lib/expiry';
import {
  formFields,
  htmlPattern,
  isPreviewDraft,
  isRequired,
  type FormMode,
  type FormValues,
} from '../lib/short-form';
import type { RulesProblemAt } from '../lib/rules';
import { schemeFix } from '../lib/url';
import { createTeamId } from '../state/space';
import { useResolved } from './useResolved';

/** The rules editor: only logged-in users see it, so it is in a chunk of its own (the start page's budget). */
const RulesEditor = lazy(() => import('./form-extras').then((m) => ({ default: m.RulesEditor })));
// The tags' input (chips, suggestions) with its words: loaded with the logged-in form only.
const TagInput = lazy(() => import('./form-extras').then((m) => ({ default: m.TagInput })));
// 'UTM-Parameter' below the target URL (logged in): in the rules editor's chunk, with its words.
const UtmSection = lazy(() => import('./form-extras').then((m) => ({ default: m.UtmSlot })));
// The social preview's section (inputs, live cards) with its words: the logged-in form only.
const SocialPreviewSection = lazy(() => import('./preview/SocialPreviewSection'));

/**
 * The short's fields, for the start page's create form (`mode: 'create'`) and the edit dialog
 * (`mode: 'edit'`): one input per row of the field table (src/shared/short-fields.ts) that the
 * caller may set, its input by the field's type, its limits (maxLength, pattern, minimum) from the
 * row. A new field is a row there, its label in `msg.fields` (the compiler asks for it) and, for a
 * new type, an input here.
 */

/** The form's state: the typed values and the understood expiry (chrono-node in the chosen language, loaded lazily). */
export function useShortForm(initial: () => FormValues, initialExpiry: Date | null = null) {
  const { lang } = useT();
  const [values, setValues] = useState(initial);
  const expiry = values.expireAt;
  // Empty text is no expiry and loads no parser (anonymous visitors never type one); the language
  // read the text: another one reads it anew (what was typed stays).
  const expireAt = useResolved(() => parseExpiry(expiry), [expiry, lang], initialExpiry);
  const change = useCallback((c: Partial<FormValues>) => setValues((v) => ({ ...v, ...c })), []);
  return {
    values,
    change,
    expireAt,
    /** False while a typed expiry is not understood. */
    expiryUnderstood: !expiry.trim() || expireAt !== null,
  };
}

export interface ShortFieldsProps {
  mode: FormMode;
  /** Create: whether the caller is logged in (else only the fields anonymous callers may set). */
  loggedIn: boolean;
  values: FormValues;
  onChange: (change: Partial<FormValues>) => void;
  /** The understood expiry (null: none, or not understood). */
  expireAt: Date | null;
  /** Edit: whether the short has a password now (its hint and the box that removes it). */
  hasPassword?: boolean;
  /** Edit: the team whose tags are suggested (the short's team; null: the caller's own). */
  tagsTeam?: string | null;
  /** The own domains the caller may use (hosts); none: no domain field. */
  domains?: readonly string[];
  /** The server's errors, at their fields (lib/errors.ts shortFieldErrors). */
  errors?: Partial<Readonly<Record<ShortFieldName, string>>>;
  /** Where the server's error of the rules points (lib/rules.ts rulesProblemAt). */
  rulesProblemAt?: RulesProblemAt;
  /**
   * Folds the fields of lib/advanced.ts into an 'Erweitert' group (the logged-in create form):
   * whether it is open, and the toggle.
   */
  advanced?: { open: boolean; onToggle: (open: boolean) => void };
}

/** The code's limits, for its hint and the browser's message. */
const CODE_LIMITS = { codeMin: CODE_MIN_LENGTH, codeMax: CODE_MAX_LENGTH } as const;

/** An input's example text (the catalogue's, by field; `{date}`: an example expiry). */
function placeholderOf(msg: Messages, name: ShortFieldName): string | undefined {
  const text = (msg.fieldPlaceholders as Partial<Record<ShortFieldName, string>>)[name];
  return text === undefined ? undefined : t(text, { date: exampleExpiryDate() });
}

/** The help text below an input (the catalogue's, by field; `{codeMin}`, `{codeMax}`: the code's limits). */
function hintOf(msg: Messages, name: ShortFieldName): string | undefined {
  const text = (msg.fieldHints as Partial<Record<ShortFieldName, string>>)[name];
  return text === undefined ? undefined : t(text, CODE_LIMITS);
}

/** The edit form's buttons that clear a field that may be cleared. */
const CLEAR_LABELS: Partial<Record<ShortFieldName, (msg: Messages) => string>> = {
  expireAt: (msg) => msg.edit.clearExpiry,
  maxUses: (msg) => msg.edit.clearMaxUses,
};

export function ShortFields(props: ShortFieldsProps) {
  const full = props.mode === 'edit' || props.loggedIn;
  const fields = formFields(full);
  // Each field keyed by its name, in a tree of one shape with or without the 'Erweitert' group:
  // when the login becomes known while the start page is in use, the fields typed already keep
  // their inputs (an input mounted anew loses the focus and what is typed into the old one).
  const field = (name: ShortFieldName) => (
    <Fragment key={name}>
      <ShortField name={name} {...props} />
      {full && name === 'url' && (
        <Suspense fallback={null}>
          <UtmSection {...props} />
        </Suspense>
      )}
    </Fragment>
  );
  const { advanced } = props;
  return (
    <>
      {fields.filter((n) => !advanced || !isAdvanced(n)).map(field)}
      {advanced && (
        <AdvancedGroup {...props} advanced={advanced}>
          {fields.filter(isAdvanced).map(field)}
        </AdvancedGroup>
      )}
    </>
  );
}

/**
 * 'Erweitert': a button that shows or hides the rarer fields (lib/advanced.ts); while closed it
 * says how many of them hold something, so nothing set there goes unnoticed.
 */
function AdvancedGroup({
  mode,
  values,
  advanced,
  children,
}: ShortFieldsProps & {
  advanced: NonNullable<ShortFieldsProps['advanced']>;
  children: ReactNode;
}) {
  const { msg } = useT();
  const id = `${mode}-advanced`;
  const set = advancedSetCount(values);
  return (
    <div className="mb-3" data-testid="advanced-group">
      <div className="d-flex align-items-center gap-2">
        <Button
          variant="link"
          className="px-0 text-decoration-none"
          aria-expanded={advanced.open}
          aria-controls={id}
          onClick={() => advanced.onToggle(!advanced.open)}
        >
          <span aria-hidden="true" className="me-1">
            {advanced.open ? '▾' : '▸'}
          </span>
          {msg.create.advanced}
        </Button>
        {!advanced.open && set > 0 && (
          <span className="small text-body-secondary" data-testid="advanced-set">
            {t(pluralForm(msg.create.advancedSet, set), { n: set })}
          </span>
        )}
      </div>
      <div id={id} hidden={!advanced.open} className="border-start ps-3 mt-2">
        {advanced.open && children}
      </div>
    </div>
  );
}

/** The browser's message for a code it refuses (pattern, length): which characters are allowed. */
function codeValidity(msg: Messages) {
  const rule = t(msg.edit.codeRule, CODE_LIMITS);
  return {
    onInvalid: (e: FormEvent<HTMLInputElement>) => {
      const input = e.currentTarget;
      const v = input.validity;
      if (v.patternMismatch || v.tooShort || v.tooLong) input.setCustomValidity(rule);
    },
    onInput: (e: { currentTarget: { setCustomValidity: (m: string) => void } }) =>
      e.currentTarget.setCustomValidity(''),
  };
}

function ShortField({
  name,
  mode,
  values,
  onChange,
  expireAt,
  hasPassword = false,
  domains = [],
  errors = {},
  rulesProblemAt,
  tagsTeam,
}: ShortFieldsProps & { name: ShortFieldName }) {
  const { msg } = useT();
  const error = errors[name];
  const input = values[name];
  if (isPreviewDraft(input)) {
    return (
      <Suspense fallback={<Spinner animation="border" size="sm" role="status" className="mb-3" />}>
        <SocialPreviewSection
          idPrefix={`${mode}-${name}`}
          label={msg.fields[name]}
          value={input}
          onChange={(preview) => onChange({ [name]: preview })}
          url={values.url}
          error={error}
        />
      </Suspense>
    );
  }
  if (typeof input !== 'string') {
    return (
      <Suspense fallback={<Spinner animation="border" size="sm" role="status" className="mb-3" />}>
        <RulesEditor
          idPrefix={`${mode}-${name}`}
          rules={input}
          onChange={(rules) => onChange({ [name]: rules })}
          error={error}
          problemAt={rulesProblemAt}
        />
      </Suspense>
    );
  }
  const value = input;
  const feedback = error ? (
    <Form.Control.Feedback
      type="invalid"
      className="d-block"
      id={`${mode}-${name}-error`}
      data-testid={`error-${name}`}
    >
      {error}
    </Form.Control.Feedback>
  ) : null;
  const spec: ShortFieldSpec = SHORT_FIELDS[name];
  const id = `${mode}-${name}`;
  const set = (text: string) => onChange({ [name]: text });
  const required = isRequired(name, mode);
  const hint = hintOf(msg, name);
  const common = {
    value,
    required,
    isInvalid: Boolean(error),
    'aria-invalid': error ? true : undefined,
    placeholder: mode === 'edit' && required ? undefined : placeholderOf(msg, name),
    onChange: (e: { target: { value: string } }) => set(e.target.value),
  };
  const clear = mode === 'edit' && spec.nullable ? CLEAR_LABELS[name]?.(msg) : undefined;
  const withClear = (input: ReactNode) =>
    clear ? (
      <InputGroup>
        {input}
        <Button variant="outline-secondary" onClick={() => set('')} disabled={!value}>
          {clear}
        </Button>
      </InputGroup>
    ) : (
      input
    );

  /** The field's labelled group, the server's error below its input. */
  const group = (input: ReactNode) => (
    <Form.Group className="mb-3" controlId={id}>
      <Form.Label>{msg.fields[name]}</Form.Label>
      {input}
      {feedback}
    </Form.Group>
  );

  switch (spec.type) {
    case 'url':
    case 'code':
    case 'text':
      return group(
        <>
          <Form.Control
            {...common}
            type={spec.type === 'url' ? 'url' : 'text'}
            {...(spec.type === 'url' ? schemeFix(set) : {})}
            {...(spec.type === 'code' ? codeValidity(msg) : {})}
            minLength={spec.type === 'url' ? undefined : spec.minLength}
            maxLength={spec.maxLength}
            pattern={htmlPattern(spec.pattern)}
            aria-describedby={hint ? `${id}-help` : undefined}
          />
          {hint && <Form.Text id={`${id}-help`}>{hint}</Form.Text>}
        </>,
      );
    case 'password': {
      const removing = mode === 'edit' && values.removePassword;
      return (
        <>
          <Form.Group className={mode === 'edit' ? 'mb-2' : 'mb-3'} controlId={id}>
            <Form.Label>{mode === 'edit' ? msg.edit.password : msg.create.password}</Form.Label>
            <Form.Control
              {...common}
              type="password"
              autoComplete="new-password"
              maxLength={spec.maxLength}
              disabled={removing}
              aria-describedby={mode === 'edit' ? `${id}-help` : undefined}
            />
            {mode === 'edit' && (
              <Form.Text id={`${id}-help`}>
                {hasPassword ? msg.edit.passwordHint : msg.edit.passwordNone}
              </Form.Text>
            )}
            {feedback}
          </Form.Group>
          {mode === 'edit' && hasPassword && (
            <Form.Check
              className="mb-3"
              id={`${mode}-remove-${name}`}
              label={msg.edit.removePassword}
              checked={values.removePassword}
              onChange={(e) => onChange({ removePassword: e.target.checked })}
            />
          )}
        </>
      );
    }
    case 'date-time': {
      const understood = !value.trim() || expireAt !== null;
      return group(
        <>
          {withClear(
            <Form.Control
              {...common}
              isInvalid={!understood || Boolean(error)}
              aria-describedby={`${id}-help`}
            />,
          )}
          <Form.Text id={`${id}-help`} className={understood ? undefined : 'text-danger'}>
            {!value.trim()
              ? msg.edit.noExpiry
              : expireAt
                ? t(msg.create.understoodAs, { date: formatDateTime(expireAt) })
                : msg.edit.expiryNotUnderstood}
          </Form.Text>
        </>,
      );
    }
    case 'domain':
      if (domains.length === 0 && !value) return null;
      return group(
        <Form.Select value={value} isInvalid={Boolean(error)} onChange={(e) => set(e.target.value)}>
          <option value="">{msg.create.mainDomain}</option>
          {[...new Set([...domains, ...(value ? [value] : [])])].map((host) => (
            <option key={host} value={host}>
              {host}
            </option>
          ))}
        </Form.Select>,
      );
    case 'rules':
    case 'preview':
      return null; // the rules editor and the preview's section, above
    case 'team': // the space switcher and the move dialog
    case 'qr-style': // the QR dialog
      return null;
    case 'tags':
      // The form keeps them as comma-separated text (lib/short-form.ts; a tag holds no comma).
      return group(
        <Suspense fallback={<Spinner animation="border" size="sm" role="status" />}>
          <TagInput
            id={id}
            value={value
              .split(',')
              .map((tag) => tag.trim())
              .filter(Boolean)}
            onChange={(tags) => set(tags.join(', '))}
            team={mode === 'create' ? createTeamId() : (tagsTeam ?? null)}
            invalid={Boolean(error)}
            describedBy={error ? `${id}-error` : undefined}
          />
        </Suspense>,
      );
    case 'integer':
      return group(
        withClear(
          <Form.Control
            {...common}
            type="number"
            min={spec.minimum}
            max={spec.maximum}
            step={1}
            inputMode="numeric"
          />,
        ),
      );
  }
}
