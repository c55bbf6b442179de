import { ApiProperty, type ApiPropertyOptions } from '@nestjs/swagger';
import {
  IsArray,
  IsDateString,
  IsInt,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  MinLength,
} from 'class-validator';
import { IsStorableDate } from '../../common/db-limits';
import { withErrorKey } from '../../common/validation';
import { MAX_RULES } from '../../shared/redirect-rules';
import { RedirectRuleDto } from './redirect-rule.dto';
import {
  type FieldType,
  SHORT_FIELD_NAMES,
  SHORT_FIELDS,
  type ShortFieldSpec,
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
};

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

/**
 * Every field a caller may set, as the API takes it: one property per row of the field table
 * (src/shared/short-fields.ts), its OpenAPI schema and its boundary validation derived from the
 * row. A create is this class (required fields required; `null` counts as absent); an edit is
 * `PartialType` of it. Never restate a field here: add a row to the table.
 */
export class ShortFieldsDto {
  url: string;
  password?: string | null;
  code?: string | null;
  name?: string | null;
  expireAt?: string | null;
  maxUses?: number | null;
  domain?: string | null;
  expiredUrl?: string | null;
  rules?: RedirectRuleDto[] | null;
}

for (const name of SHORT_FIELD_NAMES) {
  const spec: ShortFieldSpec = SHORT_FIELDS[name];
  const decorators = [
    ApiProperty(schemaOf(spec)),
    ...(spec.required ? [] : [IsOptional()]),
    ...VALIDATORS[spec.type](spec),
  ];
  for (const decorate of decorators) decorate(ShortFieldsDto.prototype, name);
}
