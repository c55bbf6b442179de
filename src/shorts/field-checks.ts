import type { BlacklistService } from '../blacklist/blacklist.service';
import type { ErrorKey } from '../shared/error-keys';
import { CUSTOM_CODE_PATTERN, isReservedCode, MAX_NAME_LENGTH } from '../shared/limits';
import {
  SHORT_FIELD_NAMES,
  SHORT_FIELDS,
  type ShortFieldName,
  type ShortInput,
} from '../shared/short-fields';
import { parseTargetUrl, type ServiceNames } from './target-url';

/** What the checks of a short's fields need to know. */
export interface CheckContext {
  /** A create (null counts as absent) or an edit (null clears a nullable field). */
  mode: 'create' | 'edit';
  /** Whether the caller is logged in (else only fields set by `anonymous` are allowed). */
  loggedIn: boolean;
  /** Every name of this service, the request's host included (no links back to us). */
  names: ServiceNames;
  blacklist: BlacklistService;
  now: number;
}

/**
 * A field's verdict: the value to store; or a field error (400 with `fieldErrors`, gathered over
 * all fields); or a problem with the contract's sentence (400 `detail`, e.g. `URL is blacklisted`).
 */
type Verdict<T> =
  { value: T } | { fieldError: string; key: ErrorKey } | { problem: string; key: ErrorKey };

const fieldError = (message: string, key: ErrorKey) => ({ fieldError: message, key });
const problem = (sentence: string, key: ErrorKey) => ({ problem: sentence, key });

/** What each field stores (the password before it is hashed). */
export interface CheckedValues {
  url: string;
  password: string | null;
  code: string;
  name: string | null;
  expireAt: Date | null;
  maxUses: number;
}

/** The checked fields: absent stays absent; `null` clears. */
export type CheckedFields = { [K in ShortFieldName]?: CheckedValues[K] | null };

/** The message of a name over the limit (class-validator's, as the DTO answers it). */
export const NAME_TOO_LONG = `name must be shorter than or equal to ${MAX_NAME_LENGTH} characters`;

/** A short's name as stored: trimmed, empty as null, at most MAX_NAME_LENGTH characters. */
export function normalizeName(name: string | null | undefined): string | null {
  const n = name?.trim();
  return n ? n.slice(0, MAX_NAME_LENGTH) : null;
}

/**
 * The create rules of every field of the table (src/shared/short-fields.ts), one per field: a new
 * field does not compile until it has its check. Each gets a present, non-null value.
 */
const CHECKS: {
  [K in ShortFieldName]: (
    value: NonNullable<ShortInput[K]>,
    ctx: CheckContext,
  ) => Verdict<CheckedValues[K] | null>;
} = {
  url(value, ctx) {
    const target = parseTargetUrl(value, ctx.names);
    if ('error' in target) return fieldError(target.error, 'url_invalid');
    if (ctx.blacklist.isBlacklisted(target.url))
      return problem('URL is blacklisted', 'url_blacklisted');
    return { value: target.url };
  },
  password: (value) => ({ value: value === '' ? null : value }),
  code(value) {
    if (!CUSTOM_CODE_PATTERN.test(value)) {
      return fieldError('must be 3 to 64 characters of A-Z, a-z, 0-9, _ and -', 'code_invalid');
    }
    if (isReservedCode(value)) return fieldError('is reserved', 'code_reserved');
    return { value };
  },
  name(value) {
    if (value.length > MAX_NAME_LENGTH) return fieldError(NAME_TOO_LONG, 'name_too_long');
    return { value: normalizeName(value) };
  },
  expireAt(value, ctx) {
    const at = new Date(value);
    if (!Number.isFinite(at.getTime()))
      return fieldError('must be an ISO 8601 date-time', 'expire_invalid');
    if (at.getTime() <= ctx.now) return problem('Expire At must be in the future', 'expire_past');
    return { value: at };
  },
  maxUses(value) {
    if (value < 1) return problem('Uses must be greater than 0', 'uses_min');
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
    }
  | { problem: string; key: ErrorKey };

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
  const problems = new Map<ShortFieldName, { problem: string; key: ErrorKey }>();
  for (const name of SHORT_FIELD_NAMES) {
    const spec = SHORT_FIELDS[name];
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
    const check = CHECKS[name] as (v: unknown, c: CheckContext) => Verdict<unknown>;
    const verdict = check(value, ctx);
    if ('value' in verdict) Object.assign(checked, { [name]: verdict.value });
    else if ('fieldError' in verdict) {
      fieldErrors[name] = verdict.fieldError;
      fieldErrorKeys[name] = verdict.key;
    } else problems.set(name, verdict);
  }
  if (Object.keys(fieldErrors).length) return { fieldErrors, fieldErrorKeys };
  for (const name of [...PROBLEM_ORDER, ...SHORT_FIELD_NAMES]) {
    const p = problems.get(name);
    if (p) return p;
  }
  return { checked };
}
