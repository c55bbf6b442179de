import { ApiProperty } from '@nestjs/swagger';
import {
  CONDITION_TYPES,
  type ConditionType,
  MAX_CONDITION_VALUE_LENGTH,
  MAX_CONDITIONS,
} from '../../shared/redirect-rules';

/** One condition of a redirect rule (src/shared/redirect-rules.ts). */
export class RuleConditionDto {
  @ApiProperty({ enum: CONDITION_TYPES })
  type: ConditionType;

  @ApiProperty({
    minLength: 1,
    maxLength: MAX_CONDITION_VALUE_LENGTH,
    description:
      '`device`: desktop, mobile or tablet; `os`: android, ios, windows, macos or linux; `language`: a language tag such as `de` or `en-GB` (matched against Accept-Language by prefix, honouring q-values); `country`: ISO 3166 alpha-2 (as the statistics see it); `query`: `name=value` (the follow’s query string holds that pair)',
    example: 'mobile',
  })
  value: string;
}

/** A redirect rule: where the follow goes when all of its conditions match. */
export class RedirectRuleDto {
  @ApiProperty({
    type: [RuleConditionDto],
    minItems: 1,
    maxItems: MAX_CONDITIONS,
    description: 'All of them must match',
  })
  conditions: RuleConditionDto[];

  @ApiProperty({
    description: 'The target of this rule (the rules of a target URL apply)',
    example: 'https://example.com/app',
  })
  url: string;
}
