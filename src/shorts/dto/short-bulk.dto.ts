import { ApiProperty, ApiPropertyOptional, PickType } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  ArrayUnique,
  IsArray,
  IsBoolean,
  IsOptional,
  IsString,
  IsUUID,
  MaxLength,
  ValidateNested,
} from 'class-validator';
import { withErrorKey } from '../../common/validation';
import { MAX_TAGS, TAG_MAX_LENGTH } from '../../shared/tags';
import { UpdateShortDto } from './update-short.dto';

/** The most shorts one bulk edit names. */
export const BULK_MAX_IDS = 500;
/** The most tags one bulk edit takes off (a short holds at most MAX_TAGS; the shorts differ). */
export const BULK_MAX_REMOVE_TAGS = 100;
/** A tag as sent, before it is trimmed (the tag rules then decide: tag_invalid). */
const TAG_INPUT_MAX = 2 * TAG_MAX_LENGTH;

/**
 * What a bulk edit sets on every short it names: the edit's fields `expireAt`, `maxUses` and
 * `team` with their boundary validation and OpenAPI schema (the field table's rows), null clearing
 * expiry and limit and moving to the caller's own space.
 */
export class BulkSetDto extends PickType(UpdateShortDto, [
  'expireAt',
  'maxUses',
  'team',
] as const) {}

const tagList = (max: number, description: string) => [
  ApiPropertyOptional({
    type: [String],
    maxItems: max,
    description,
    example: ['Herbst', 'Kampagne 2026'],
  }),
  IsOptional(),
  IsArray(withErrorKey('tag_invalid')),
  ArrayMaxSize(max, withErrorKey('too_many_tags')),
  IsString({ each: true, ...withErrorKey('tag_invalid') }),
  MaxLength(TAG_INPUT_MAX, { each: true, ...withErrorKey('tag_invalid') }),
];

function apply(decorators: PropertyDecorator[]): PropertyDecorator {
  return (target, key) => {
    for (const d of decorators) d(target, key);
  };
}

/**
 * `POST /api/code/bulk`: the shorts (1–500 ids) and what happens to all of them: `set` fields,
 * tags added and taken off, or `delete` (alone).
 */
export class BulkEditDto {
  @ApiProperty({
    type: 'array',
    items: { type: 'string', format: 'uuid' },
    minItems: 1,
    maxItems: BULK_MAX_IDS,
    uniqueItems: true,
    description: `The shorts' ids (1–${BULK_MAX_IDS}, each once); every one must be the caller's to write`,
  })
  @IsArray(withErrorKey('id_invalid'))
  @ArrayMinSize(1, withErrorKey('id_invalid'))
  @ArrayMaxSize(BULK_MAX_IDS, withErrorKey('id_invalid'))
  @ArrayUnique(undefined, withErrorKey('id_invalid'))
  @IsUUID('4', { each: true, ...withErrorKey('id_invalid') })
  ids: string[];

  @ApiPropertyOptional({
    type: BulkSetDto,
    description: 'Fields set on every short (absent fields stay as they are)',
  })
  @IsOptional()
  @ValidateNested()
  @Type(() => BulkSetDto)
  set?: BulkSetDto;

  @apply(
    tagList(
      MAX_TAGS,
      'Tags added to every short that lacks them (in case-insensitive comparison; a short keeps its own spelling); a short that would carry more than 10 refuses the edit (too_many_tags)',
    ),
  )
  addTags?: string[];

  @apply(
    tagList(
      BULK_MAX_REMOVE_TAGS,
      'Tags taken off every short that carries them (compared case-insensitively)',
    ),
  )
  removeTags?: string[];

  @ApiPropertyOptional({
    type: Boolean,
    description: 'true: delete the shorts (nothing else may be given then)',
  })
  @IsOptional()
  @IsBoolean()
  delete?: boolean;
}

/** What a bulk edit did. */
export class BulkResultDto {
  @ApiProperty({ type: 'array', items: { type: 'string', format: 'uuid' } })
  changed: string[];

  @ApiProperty({ type: 'array', items: { type: 'string', format: 'uuid' } })
  deleted: string[];
}
