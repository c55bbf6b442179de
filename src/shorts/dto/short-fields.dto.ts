import { ApiProperty, type ApiPropertyOptions } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  IsArray,
  IsDateString,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  MinLength,
} from 'class-validator';
import { IsStorableDate } from '../../common/db-limits';
import { withErrorKey } from '../../common/validation';
import { MAX_RULES } from '../../shared/redirect-rules';
import { MAX_TAG_INPUTS, TAG_INPUT_MAX_LENGTH } from '../../shared/tags';
import { RedirectRuleDto } from './redirect-rule.dto';
import { SocialPreviewInputDto } from './social-preview.dto';
import { QR_STYLE_DESCRIPTION, QrStyleInputDto } from './qr-style.dto';
import {
  type FieldType,
  type FieldsWith,
  SHORT_FIELD_NAMES,
  SHORT_FIELDS,
  type ShortFieldName,
  type ShortFieldSpec,
  type ShortInput,
} from '../../shared/short-fields';

/**
 * A target URL longer than the column is refused by the field's check with its own message (`must
 * be at most 2048 characters long`); the boundary only bounds what is read at all.
 */
const URL_INPUT_MAX = 5000;

/**
 * What the boundary checks of each field type (the rules beyond it are field-checks.ts); each
 * refusal names the row's key (`fieldErrorKeys`): a text over its length its `tooLongKey`, anything
 * else its `invalidKey`.
 */
const VALIDATORS: Record<FieldType, (spec: ShortFieldSpec) => PropertyDecorator[]> = {
  url: (spec) => {
    const key = withErrorKey(spec.invalidKey);
    return [IsString(key), MinLength(1, key), MaxLength(URL_INPUT_MAX, key)];
  },
  code: (spec) => textValidators(spec),
  text: (spec) => textValidators(spec),
  password: (spec) => textValidators(spec),
  domain: (spec) => textValidators(spec),
  team: (spec) => textValidators(spec),
  'date-time': (spec) => [
    IsDateString({ strict: true }, withErrorKey(spec.invalidKey)),
    IsStorableDate(withErrorKey(spec.invalidKey)),
  ],
  integer: (spec) => [
    IsInt(withErrorKey(spec.invalidKey)),
    ...(spec.maximum === undefined ? [] : [Max(spec.maximum, withErrorKey(spec.invalidKey))]),
  ],
  // Only a list here: the shape of each rule, its conditions and its url are the field's check
  // (field-checks.ts), which names the rule and the key of what is wrong.
  rules: (spec) => [IsArray(withErrorKey(spec.invalidKey))],
  // A bounded list of bounded texts here; the tags' own rules (characters, length, how many
  // distinct ones) are the field's check (normalizeTags), which names the tag that is wrong.
  tags: (spec) => [
    IsArray(withErrorKey(spec.invalidKey)),
    ArrayMaxSize(MAX_TAG_INPUTS, withErrorKey('too_many_tags')),
    IsString({ each: true, ...withErrorKey(spec.invalidKey) }),
    MaxLength(TAG_INPUT_MAX_LENGTH, { each: true, ...withErrorKey(spec.invalidKey) }),
  ],
  // Only an object here: its parts (known keys, texts, lengths, an https image) are the field's
  // check (checkPreview), which names the part and the key of what is wrong.
  preview: (spec) => [IsObject(withErrorKey(spec.invalidKey))],
  // Only an object here: its parts (colours, level, margin, contrast) are the field's check
  // (shared/qr-style.ts normalizeQrStyle), which names the part that is wrong.
  'qr-style': (spec) => [IsObject(withErrorKey(spec.invalidKey))],
};

/**
 * The lengths the validators above accept of a text field (`url`: 1 to URL_INPUT_MAX, the other
 * texts up to their maxLength); undefined for the other types.
 */
function textBounds(spec: ShortFieldSpec): readonly [number, number] | undefined {
  switch (spec.type) {
    case 'url':
      return [1, URL_INPUT_MAX];
    case 'code':
    case 'text':
    case 'password':
    case 'domain':
    case 'team':
      return [0, spec.maxLength ?? URL_INPUT_MAX];
    default:
      return undefined;
  }
}

/**
 * Characters that class-validator's lengths (validator.js `isLength`) do not count one by one:
 * surrogate pairs and variation selectors. Without them its length is the string's `length`.
 */
const UNEVEN_LENGTH = /[\uD800-\uDFFF]|\uFE0E|\uFE0F/;

/**
 * Whether a body certainly passes the boundary validation of ShortFieldsDto (the decorators
 * below): only known fields; required ones present; each field null (optional ones) or text
 * within its bounds. Dates, numbers and rules are left to the validators (false), as is every
 * refusal. The validation pipe takes such a body as it is (`acceptAsIs`).
 */
export function passesShortFieldChecks(body: Record<string, unknown>): boolean {
  for (const key in body) {
    if (!Object.hasOwn(SHORT_FIELDS, key)) return false;
  }
  for (const name of SHORT_FIELD_NAMES) {
    const spec: ShortFieldSpec = SHORT_FIELDS[name];
    const value = body[name];
    if (value === null || value === undefined) {
      if (spec.required) return false;
      continue;
    }
    const bounds = textBounds(spec);
    if (
      bounds === undefined ||
      typeof value !== 'string' ||
      value.length < bounds[0] ||
      value.length > bounds[1] ||
      UNEVEN_LENGTH.test(value)
    ) {
      return false;
    }
  }
  return true;
}

function textValidators(spec: ShortFieldSpec): PropertyDecorator[] {
  return [
    IsString(withErrorKey(spec.invalidKey)),
    MaxLength(spec.maxLength ?? URL_INPUT_MAX, withErrorKey(spec.tooLongKey ?? spec.invalidKey)),
  ];
}

/** The OpenAPI schema of a field, from its row. */
function schemaOf(spec: ShortFieldSpec): ApiPropertyOptions {
  if (spec.type === 'rules') {
    return {
      type: [RedirectRuleDto],
      required: false,
      nullable: true,
      maxItems: MAX_RULES,
      description: spec.description,
    } as ApiPropertyOptions;
  }
  if (spec.type === 'tags') {
    return {
      type: 'array',
      items: { type: 'string', maxLength: TAG_INPUT_MAX_LENGTH, example: 'Herbst' },
      required: false,
      nullable: true,
      maxItems: MAX_TAG_INPUTS,
      description: spec.description,
      example: ['Herbst', 'Kampagne'],
    } as ApiPropertyOptions;
  }
  if (spec.type === 'preview') {
    return {
      type: SocialPreviewInputDto,
      required: false,
      nullable: true,
      description: spec.description,
    } as ApiPropertyOptions;
  }
  if (spec.type === 'qr-style') {
    return {
      type: QrStyleInputDto,
      required: false,
      nullable: true,
      description: `${QR_STYLE_DESCRIPTION} (logged-in only). Missing parts are the default's (000000, ffffff, M, 4); null removes it`,
    } as ApiPropertyOptions;
  }
  const type = spec.type === 'integer' ? 'integer' : 'string';
  return {
    type,
    ...(spec.type === 'date-time' ? { format: 'date-time' } : {}),
    ...(spec.type === 'password' ? { format: 'password' } : {}),
    required: spec.required === true,
    nullable: spec.required !== true,
    description: spec.description,
    ...(spec.minLength !== undefined ? { minLength: spec.minLength } : {}),
    ...(spec.maxLength !== undefined ? { maxLength: spec.maxLength } : {}),
    ...(spec.pattern !== undefined ? { pattern: spec.pattern } : {}),
    ...(spec.minimum !== undefined ? { minimum: spec.minimum } : {}),
    ...(spec.maximum !== undefined ? { maximum: spec.maximum } : {}),
    ...(spec.example !== undefined ? { example: spec.example } : {}),
  } as ApiPropertyOptions;
}

/** A field's value as the API takes it (rules as their DTO, for the OpenAPI schema). */
type Taken<K extends ShortFieldName> = (typeof SHORT_FIELDS)[K]['type'] extends 'rules'
  ? RedirectRuleDto[]
  : (typeof SHORT_FIELDS)[K]['type'] extends 'preview'
    ? SocialPreviewInputDto
    : (typeof SHORT_FIELDS)[K]['type'] extends 'qr-style'
      ? QrStyleInputDto
      : NonNullable<ShortInput[K]>;
type Needed = FieldsWith<'required'>;
/** One property per row of the field table: the needed ones required, the others optional. */
export type ShortFieldValues = { [K in Needed]: Taken<K> } & {
  [K in Exclude<ShortFieldName, Needed>]?: Taken<K> | null;
};

/**
 * Every field a caller may set, as the API takes it: one property per row of the field table
 * (src/shared/short-fields.ts), its type, its OpenAPI schema and its boundary validation derived
 * from the row. A create is this class (required fields required; `null` counts as absent); an
 * edit is `PartialType` of it. Never restate a field here: add a row to the table.
 */
export const ShortFieldsDto = class ShortFieldsDto {} as new () => ShortFieldValues;
export type ShortFieldsDto = ShortFieldValues;

for (const name of SHORT_FIELD_NAMES) {
  const spec: ShortFieldSpec = SHORT_FIELDS[name];
  const decorators = [
    ApiProperty(schemaOf(spec)),
    ...(spec.required ? [] : [IsOptional()]),
    ...VALIDATORS[spec.type](spec),
  ];
  for (const decorate of decorators) decorate(ShortFieldsDto.prototype, name);
}
