import type { BlacklistService } from '../blacklist/blacklist.service';
import type { ErrorKey, FieldErrorPath, SpecificErrorKey } from '../shared/error-keys';
import { CUSTOM_CODE_PATTERN, isReservedCode, MAX_NAME_LENGTH } from '../shared/limits';
import {
  type FieldProblem,
  type FieldType,
  SHORT_FIELD_NAMES,
  SHORT_FIELDS,
  type ShortFieldName,
  type ShortFieldSpec,
  type ShortInput,
} from '../shared/short-fields';
import { normalizeDomainHost } from '../domains/domain-host';
import { parseRulesShape, type RedirectRule, ruleAt } from '../shared/redirect-rules';
import { parseTargetUrl, type ServiceNames } from '../domains/target-url';
import { joinTags, MAX_TAGS, normalizeTags, TAG_MAX_LENGTH } from '../shared/tags';
import { checkPreview, type SocialPreview } from '../shared/social-preview';
import { normalizeQrStyle, qrStyleToColumn } from '../shared/qr-style';

/** What the checks of a short's fields need to know. */
export interface CheckContext {
  /** A create (null counts as absent) or an edit (null clears a nullable field). */
  mode: 'create' | 'edit';
  /** Whether the caller is logged in (else only fields set by `anonymous` are allowed). */
  loggedIn: boolean;
  /**
   * Every name of this service, the request's host and the domains it serves included (no links
   * back to us: `url_self`).
   */
  names: ServiceNames;
  blacklist: BlacklistService;
  now: number;
  /** Whether the caller may put shorts on a domain (its normalised host). */
  domainAccess(host: string): 'ok' | 'forbidden' | 'unknown';
  /** Whether the caller may write to the team `id` (owner or editor; AccessPolicy). */
  teamAccess(id: string): boolean;
}

/**
 * A field's verdict: the value to store; or a field error (400 with `fieldErrors`, gathered over
 * all fields); or a problem with the contract's sentence (400 `detail`, e.g. `URL is blacklisted`).
 */
type Verdict<T> =
  | { value: T }
  | { fieldError: string; key: ErrorKey; path?: FieldErrorPath }
  | { problem: string; key: SpecificErrorKey };

/** A field error; `path` says where inside the field's value it is (a rule, a condition). */
const fieldError = (message: string, key: ErrorKey, path?: FieldErrorPath) => ({
  fieldError: message,
  key,
  path,
});
const problem = (sentence: string, key: SpecificErrorKey) => ({ problem: sentence, key });

/** What a field of each type stores (a password before it is hashed). */
interface StoredValue {
  url: string;
  code: string;
  text: string | null;
  password: string | null;
  'date-time': Date;
  integer: number;
  domain: string;
  /** Never an empty list: no rules are stored as null. */
  rules: RedirectRule[];
  /** A team's id. */
  team: string;
  /** The `shorts.tags` column (normalised, comma-joined); never empty: no tags are stored as null. */
  tags: string;
  /** Never without a part: a preview with every part empty is stored as null. */
  preview: SocialPreview;
  /** The `shorts.qr_style` column: `fg,bg,ec,margin`, normalised (qrStyleToColumn). */
  'qr-style': string;
}

/** What a field of each type arrives as (a list of rules as JSON: its shape is checked here). */
type InputValue<T extends FieldType> = T extends 'integer'
  ? number
  : T extends 'rules' | 'tags' | 'preview' | 'qr-style'
    ? unknown
    : string;

/** The checked fields: absent stays absent; `null` clears. */
export type CheckedFields = {
  [K in ShortFieldName]?: StoredValue[(typeof SHORT_FIELDS)[K]['type']] | null;
};

/** The message of a name over the limit (class-validator's, as the DTO answers it). */
export const NAME_TOO_LONG = `name must be shorter than or equal to ${MAX_NAME_LENGTH} characters`;

/** A short's name as stored: trimmed, empty as null, at most MAX_NAME_LENGTH characters. */
export function normalizeName(name: string | null | undefined): string | null {
  const n = name?.trim();
  return n ? n.slice(0, MAX_NAME_LENGTH) : null;
}

const problemOf = (p: FieldProblem) => problem(p.sentence, p.key);

/**
 * The create rules of each field type, read from the field's row (its limits and the contract's
 * sentences): a new field of a known type needs no code here. Each gets a present, non-null value.
 */
const CHECKS: {
  [T in FieldType]: (
    value: InputValue<T>,
    spec: ShortFieldSpec,
    ctx: CheckContext,
  ) => Verdict<StoredValue[T] | null>;
} = {
  url(value, spec, ctx) {
    const target = parseTargetUrl(value, ctx.names);
    if ('error' in target)
      return fieldError(target.error, target.self ? 'url_self' : spec.invalidKey);
    if (spec.blacklisted && ctx.blacklist.isBlacklisted(target.url)) {
      return problemOf(spec.blacklisted);
    }
    return { value: target.url };
  },
  password: (value) => ({ value: value === '' ? null : value }),
  code(value, spec) {
    if (!CUSTOM_CODE_PATTERN.test(value)) {
      return fieldError('must be 3 to 64 characters of A-Z, a-z, 0-9, _ and -', spec.invalidKey);
    }
    if (isReservedCode(value)) return fieldError('is reserved', 'code_reserved');
    return { value };
  },
  text(value, spec) {
    const max = spec.maxLength ?? MAX_NAME_LENGTH;
    if (value.length > max) {
      return fieldError(
        `${spec.column} must be shorter than or equal to ${max} characters`,
        spec.tooLongKey ?? spec.invalidKey,
      );
    }
    const v = value.trim();
    return { value: v ? v.slice(0, max) : null };
  },
  'date-time'(value, spec, ctx) {
    const at = new Date(value);
    if (!Number.isFinite(at.getTime()))
      return fieldError('must be an ISO 8601 date-time', spec.invalidKey);
    if (spec.past && at.getTime() <= ctx.now) return problemOf(spec.past);
    return { value: at };
  },
  domain(value, spec, ctx) {
    const host = normalizeDomainHost(value);
    if ('error' in host) return fieldError(host.error, spec.invalidKey);
    const access = ctx.domainAccess(host.host);
    if (access === 'unknown') return fieldError('is not a domain of this service', spec.invalidKey);
    if (access === 'forbidden' && spec.forbidden) {
      return { ...problemOf(spec.forbidden), status: 403 as const };
    }
    return { value: host.host };
  },
  rules(value, _spec, ctx) {
    const shape = parseRulesShape(value);
    if ('error' in shape) return fieldError(shape.error, shape.key, shape.path);
    const rules: RedirectRule[] = [];
    for (const [i, rule] of shape.rules.entries()) {
      const target = parseTargetUrl(rule.url, ctx.names);
      if ('error' in target) {
        const key = target.self ? 'url_self' : 'rule_url_invalid';
        return fieldError(`${ruleAt(i)}: url ${target.error}`, key, [i, 'url']);
      }
      if (ctx.blacklist.isBlacklisted(target.url)) {
        return fieldError(`${ruleAt(i)}: url is blacklisted`, 'rule_url_blacklisted', [i, 'url']);
      }
      rules.push({ conditions: rule.conditions, url: target.url });
    }
    return { value: rules.length ? rules : null };
  },
  team(value, spec, ctx) {
    if (!ctx.teamAccess(value) && spec.forbidden) {
      return { ...problemOf(spec.forbidden), status: 403 as const };
    }
    return { value };
  },
  // A list of texts (the boundary's, or an import's cell): normalised (cleaned, one spelling per
  // key, the first), each allowed, at most MAX_TAGS.
  tags(value, spec) {
    if (!Array.isArray(value) || value.some((t) => typeof t !== 'string')) {
      return fieldError('must be a list of texts', spec.invalidKey);
    }
    const list = value as string[];
    const outcome = normalizeTags(list);
    if ('invalid' in outcome) {
      const at = list.indexOf(outcome.invalid);
      return fieldError(
        `tag ${at + 1} must be 1 to ${TAG_MAX_LENGTH} characters of letters, digits, spaces, -, _ and .`,
        'tag_invalid',
        [at],
      );
    }
    if ('tooMany' in outcome) {
      return fieldError(`at most ${MAX_TAGS} tags (${outcome.tooMany} given)`, 'too_many_tags');
    }
    return { value: joinTags(outcome.tags) };
  },
  // An object of title, description and image (the boundary's, or an import's JSON cell).
  preview(value) {
    const checked = checkPreview(value);
    if ('error' in checked) {
      return fieldError(checked.error, checked.key, checked.path ? [checked.path] : undefined);
    }
    return { value: checked.value };
  },
  // An object {fg, bg, ec, margin} (the boundary's, or an import's cell): colours with `#` or
  // without, missing parts the default's; the colours at least 3:1 apart (`qr_contrast`).
  'qr-style'(value, spec) {
    const outcome = normalizeQrStyle(value);
    if ('problem' in outcome) {
      const { part, message, contrast } = outcome.problem;
      return fieldError(
        part ? `${part} ${message}` : message,
        contrast ? 'qr_contrast' : spec.invalidKey,
        part ? [part] : undefined,
      );
    }
    return { value: qrStyleToColumn(outcome.style) };
  },
  integer(value, spec) {
    if (spec.minimum !== undefined && value < spec.minimum && spec.belowMinimum) {
      return problemOf(spec.belowMinimum);
    }
    return { value };
  },
};

/** The order in which problems (contract sentences) are answered when several fields have one. */
const PROBLEM_ORDER: readonly ShortFieldName[] = ['maxUses', 'expireAt', 'url'];

export type CheckOutcome =
  | { checked: CheckedFields }
  | {
      fieldErrors: Record<string, string>;
      fieldErrorKeys: Record<string, ErrorKey>;
      /** Where inside a field its error is, for the fields whose values have parts (rules). */
      fieldErrorPaths?: Record<string, FieldErrorPath>;
    }
  | { problem: string; key: SpecificErrorKey; status?: 403 };

/**
 * The create rules for every field present in `input`, driven by the field table: who may set it
 * (anonymous callers only the `anonymous` fields), nullability (null clears on edit, is absent on
 * create), then each field's check. Field errors are gathered; when there are none, the first
 * problem (in PROBLEM_ORDER) is the answer; else the checked fields.
 */
export function checkShortFields(input: ShortInput, ctx: CheckContext): CheckOutcome {
  const checked: CheckedFields = {};
  const fieldErrors: Record<string, string> = {};
  const fieldErrorKeys: Record<string, ErrorKey> = {};
  const fieldErrorPaths: Record<string, FieldErrorPath> = {};
  const problems = new Map<ShortFieldName, Extract<CheckOutcome, { problem: string }>>();
  for (const name of SHORT_FIELD_NAMES) {
    const spec: ShortFieldSpec = SHORT_FIELDS[name];
    let value = input[name];
    if (value === undefined) continue;
    if (spec.setBy === 'user' && !ctx.loggedIn) {
      if (value !== null) {
        fieldErrors[name] = 'Only available to logged-in users';
        fieldErrorKeys[name] = 'field_not_allowed';
      }
      continue;
    }
    if (ctx.mode === 'create' && name === 'code' && typeof value === 'string') {
      value = value.trim() || null; // an empty custom code asks for a generated one
    }
    if (value === null) {
      if (ctx.mode === 'edit' && !spec.nullable) {
        fieldErrors[name] = `${name} must be a string`;
        fieldErrorKeys[name] = spec.invalidKey;
      } else if (ctx.mode === 'edit') {
        Object.assign(checked, { [name]: null });
      }
      continue;
    }
    const check = CHECKS[spec.type] as (
      v: unknown,
      s: ShortFieldSpec,
      c: CheckContext,
    ) => Verdict<unknown>;
    const verdict = check(value, spec, ctx);
    if ('value' in verdict) Object.assign(checked, { [name]: verdict.value });
    else if ('fieldError' in verdict) {
      fieldErrors[name] = verdict.fieldError;
      fieldErrorKeys[name] = verdict.key;
      if (verdict.path) fieldErrorPaths[name] = [name, ...verdict.path];
    } else problems.set(name, verdict);
  }
  if (Object.keys(fieldErrors).length) {
    const located = Object.keys(fieldErrorPaths).length ? { fieldErrorPaths } : {};
    return { fieldErrors, fieldErrorKeys, ...located };
  }
  for (const name of [...PROBLEM_ORDER, ...SHORT_FIELD_NAMES]) {
    const p = problems.get(name);
    if (p) return p;
  }
  return { checked };
}
