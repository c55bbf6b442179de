import {
  CONDITION_TYPES,
  MAX_CONDITION_VALUE_LENGTH,
  MAX_CONDITIONS,
  MAX_RULES,
  normalizeConditionValue,
  RULE_DEVICES,
  RULE_OSES,
  type ConditionType,
} from '@shared/redirect-rules';
import { MAX_URL_LENGTH } from '@shared/limits';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import InputGroup from 'react-bootstrap/InputGroup';
import { countrySuggestions, languageSuggestions } from '../../lib/rule-suggestions';
import { OS_NAMES } from '../../lib/rule-summary';
import {
  canAddCondition,
  canAddRule,
  moveRule,
  newCondition,
  newRule,
  type ConditionDraft,
  type RuleDraft,
  type RulesProblemAt,
} from '../../lib/rules';
import { schemeFix } from '../../lib/url';
import { useT } from '../../i18n/context';

export interface RulesEditorProps {
  /** Prefix of the inputs' ids (`edit-rules`, `create-rules`). */
  idPrefix: string;
  rules: readonly RuleDraft[];
  onChange: (rules: RuleDraft[]) => void;
  /** The server's refusal of the rules, as German text (by its errorKey). */
  error?: string;
  /** Where that refusal points (the rule and condition it names); none: the whole list. */
  problemAt?: RulesProblemAt;
}

/**
 * 'Weiterleitungsregeln' of the short's form (create and edit, logged-in only): up to MAX_RULES
 * rules in order, each with 1 to MAX_CONDITIONS conditions (a type and its value) and a target;
 * add, move up and down, remove. Values: a select for devices and systems, suggestions (datalist)
 * for countries and languages, `name=value` for a query pair. Loaded lazily by ShortFields.
 */
export default function RulesEditor({
  idPrefix,
  rules,
  onChange,
  error,
  problemAt,
}: RulesEditorProps) {
  const { msg, t } = useT();
  const setRule = (i: number, rule: RuleDraft) =>
    onChange(rules.map((r, k) => (k === i ? rule : r)));
  const atRule = problemAt?.rule;
  const listError = error !== undefined && (atRule === undefined || atRule >= rules.length);
  return (
    <fieldset className="mb-3" data-testid="rules-editor" aria-describedby={`${idPrefix}-help`}>
      <legend className="form-label fs-6 mb-1">{msg.fields.rules}</legend>
      <p className="form-text mt-0" id={`${idPrefix}-help`}>
        {msg.rules.intro}
      </p>
      {rules.map((rule, i) => (
        <RuleCard
          key={rule.id}
          idPrefix={`${idPrefix}-${rule.id}`}
          lists={idPrefix}
          rule={rule}
          index={i}
          count={rules.length}
          onChange={(r) => setRule(i, r)}
          onMove={(by) => onChange(moveRule(rules, i, by))}
          onRemove={() => onChange(rules.filter((_, k) => k !== i))}
          error={!listError && atRule === i ? error : undefined}
          problemCondition={atRule === i ? problemAt?.condition : undefined}
        />
      ))}
      {listError && (
        <div className="invalid-feedback d-block mb-2" data-testid="error-rules">
          {error}
        </div>
      )}
      <div className="d-flex flex-wrap align-items-center gap-2">
        <Button
          variant="outline-primary"
          size="sm"
          onClick={() => onChange([...rules, newRule()])}
          disabled={!canAddRule(rules)}
        >
          {msg.rules.add}
        </Button>
        {!canAddRule(rules) && (
          <span className="form-text m-0">{t(msg.rules.maxRules, { max: MAX_RULES })}</span>
        )}
      </div>
      <datalist id={`${idPrefix}-countries`}>
        {countrySuggestions().map((s) => (
          <option key={s.value} value={s.value} label={s.label} />
        ))}
      </datalist>
      <datalist id={`${idPrefix}-languages`}>
        {languageSuggestions().map((s) => (
          <option key={s.value} value={s.value} label={s.label} />
        ))}
      </datalist>
    </fieldset>
  );
}

function RuleCard({
  idPrefix,
  lists,
  rule,
  index,
  count,
  onChange,
  onMove,
  onRemove,
  error,
  problemCondition,
}: {
  idPrefix: string;
  /** The prefix of the editor's datalists. */
  lists: string;
  rule: RuleDraft;
  index: number;
  count: number;
  onChange: (rule: RuleDraft) => void;
  onMove: (by: -1 | 1) => void;
  onRemove: () => void;
  error?: string;
  problemCondition?: number;
}) {
  const { msg, t } = useT();
  const n = index + 1;
  const title = t(msg.rules.rule, { n });
  const setCondition = (j: number, c: ConditionDraft) =>
    onChange({ ...rule, conditions: rule.conditions.map((x, k) => (k === j ? c : x)) });
  // A refusal that names no condition is about the rule's url.
  const urlProblem = error !== undefined && problemCondition === undefined;
  return (
    <div
      className={`border rounded p-2 mb-2${error ? ' border-danger' : ''}`}
      role="group"
      aria-label={title}
      data-testid="rule"
    >
      <div className="d-flex align-items-center gap-1 mb-1">
        <strong className="me-auto">{title}</strong>
        <Button
          variant="outline-secondary"
          size="sm"
          aria-label={t(msg.rules.upLabel, { n })}
          title={t(msg.rules.upLabel, { n })}
          disabled={index === 0}
          onClick={() => onMove(-1)}
        >
          ↑
        </Button>
        <Button
          variant="outline-secondary"
          size="sm"
          aria-label={t(msg.rules.downLabel, { n })}
          title={t(msg.rules.downLabel, { n })}
          disabled={index === count - 1}
          onClick={() => onMove(1)}
        >
          ↓
        </Button>
        <Button
          variant="outline-danger"
          size="sm"
          aria-label={t(msg.rules.removeLabel, { n })}
          onClick={onRemove}
        >
          {msg.rules.remove}
        </Button>
      </div>
      <div className="small mb-1">{msg.rules.when}</div>
      {rule.conditions.map((c, j) => (
        <ConditionRow
          key={c.id}
          list={lists}
          condition={c}
          index={j}
          removable={rule.conditions.length > 1}
          onChange={(next) => setCondition(j, next)}
          onRemove={() =>
            onChange({ ...rule, conditions: rule.conditions.filter((_, k) => k !== j) })
          }
          error={problemCondition === j ? error : undefined}
        />
      ))}
      <div className="d-flex flex-wrap align-items-center gap-2 mb-2">
        <Button
          variant="link"
          size="sm"
          className="px-0"
          onClick={() => onChange({ ...rule, conditions: [...rule.conditions, newCondition()] })}
          disabled={!canAddCondition(rule)}
        >
          {msg.rules.addCondition}
        </Button>
        {!canAddCondition(rule) && (
          <span className="form-text m-0">
            {t(msg.rules.maxConditions, { max: MAX_CONDITIONS })}
          </span>
        )}
      </div>
      <Form.Group controlId={`${idPrefix}-url`}>
        <Form.Label className="small mb-1">{msg.rules.target}</Form.Label>
        <Form.Control
          type="url"
          size="sm"
          required
          maxLength={MAX_URL_LENGTH}
          placeholder={msg.create.urlPlaceholder}
          value={rule.url}
          isInvalid={urlProblem}
          onChange={(e) => onChange({ ...rule, url: e.target.value })}
          {...schemeFix((url) => onChange({ ...rule, url }))}
        />
        {urlProblem && (
          <Form.Control.Feedback type="invalid" data-testid="error-rules">
            {error}
          </Form.Control.Feedback>
        )}
      </Form.Group>
    </div>
  );
}

function ConditionRow({
  list,
  condition,
  index,
  removable,
  onChange,
  onRemove,
  error,
}: {
  list: string;
  condition: ConditionDraft;
  index: number;
  removable: boolean;
  onChange: (c: ConditionDraft) => void;
  onRemove: () => void;
  error?: string;
}) {
  const { msg, t } = useT();
  const n = index + 1;
  const { type, value } = condition;
  // A typed value that the server would refuse says so at once (the server's text wins).
  const wrong = value.trim() !== '' && 'error' in normalizeConditionValue(type, value);
  const invalid = wrong || error !== undefined;
  const valueProps = {
    'aria-label': t(msg.rules.value, { n }),
    required: true,
    value,
    isInvalid: invalid,
  };
  const options = (values: readonly string[], names: Record<string, string>) => (
    <Form.Select
      {...valueProps}
      onChange={(e) => onChange({ ...condition, value: e.target.value })}
    >
      <option value="" disabled>
        {msg.rules.choose}
      </option>
      {values.map((v) => (
        <option key={v} value={v}>
          {names[v]}
        </option>
      ))}
    </Form.Select>
  );
  return (
    <InputGroup size="sm" className="mb-1" hasValidation data-testid="rule-condition">
      <Form.Select
        aria-label={t(msg.rules.type, { n })}
        value={type}
        style={{ maxWidth: '11rem' }}
        onChange={(e) =>
          onChange({ ...condition, type: e.target.value as ConditionType, value: '' })
        }
      >
        {CONDITION_TYPES.map((ct) => (
          <option key={ct} value={ct}>
            {msg.rules.types[ct]}
          </option>
        ))}
      </Form.Select>
      {type === 'device' ? (
        options(RULE_DEVICES, msg.rules.devices)
      ) : type === 'os' ? (
        options(RULE_OSES, OS_NAMES)
      ) : (
        <Form.Control
          {...valueProps}
          maxLength={MAX_CONDITION_VALUE_LENGTH}
          placeholder={msg.rules.examples[type]}
          list={
            type === 'country'
              ? `${list}-countries`
              : type === 'language'
                ? `${list}-languages`
                : undefined
          }
          autoComplete="off"
          onChange={(e) => onChange({ ...condition, value: e.target.value })}
        />
      )}
      <Button
        variant="outline-secondary"
        aria-label={t(msg.rules.removeCondition, { n })}
        title={t(msg.rules.removeCondition, { n })}
        disabled={!removable}
        onClick={onRemove}
      >
        ×
      </Button>
      {invalid && (
        <Form.Control.Feedback type="invalid">
          {error ?? msg.rules.invalid[type]}
        </Form.Control.Feedback>
      )}
    </InputGroup>
  );
}
