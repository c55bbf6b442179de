import { TeamRefDto } from '../../access/team-ref.dto';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayNotEmpty,
  ArrayUnique,
  IsArray,
  IsDateString,
  IsIn,
  IsOptional,
  IsString,
  MaxLength,
} from 'class-validator';
import { IsStorableDate } from '../../common/db-limits';
import { withErrorKey } from '../../common/validation';
import { API_KEY_NAME_MAX, API_KEY_SCOPES, type ApiKeyScope } from '../../shared/teams';

/** The spec's single key (GET/PUT /api/self/apikey): the key itself, named `id` by the spec. */
export class ApiKeyDto {
  @ApiProperty({
    description: 'The API key itself (use as Authorization: Bearer {id})',
    example: 'us_…',
  })
  id: string;
}

/** One of the caller's API keys, never the key itself nor its hash. */
export class ApiKeySummaryDto {
  @ApiProperty({ format: 'uuid', description: 'The record id (not the key)' })
  id: string;
  @ApiProperty({ maxLength: API_KEY_NAME_MAX, example: 'CI deploy' })
  name: string;
  @ApiProperty({
    description: 'The key’s first characters, so its holder recognises it',
    example: 'us_3fJq9aZ',
  })
  prefix: string;
  @ApiProperty({ enum: API_KEY_SCOPES, isArray: true })
  scopes: ApiKeyScope[];
  @ApiProperty({
    type: TeamRefDto,
    nullable: true,
    description: 'The team the key acts for (null: its user’s own space)',
  })
  team: TeamRefDto | null;
  @ApiProperty({ type: 'string', format: 'date-time' })
  createdAt: string;
  @ApiProperty({ type: 'string', format: 'date-time', nullable: true })
  expiresAt: string | null;
  @ApiProperty({
    type: 'string',
    format: 'date-time',
    nullable: true,
    description: 'Last authenticated call (updated at most once a minute)',
  })
  lastUsedAt: string | null;
}

/** A key just created: the summary plus the key, shown in this answer only. */
export class CreatedApiKeyDto extends ApiKeySummaryDto {
  @ApiProperty({
    description: 'The API key itself (Authorization: Bearer {key}); shown only in this answer',
    example: 'us_…',
  })
  key: string;
}

export class CreateApiKeyDto {
  @ApiProperty({ minLength: 1, maxLength: API_KEY_NAME_MAX, example: 'CI deploy' })
  @IsString()
  @MaxLength(API_KEY_NAME_MAX * 4)
  name: string;

  @ApiProperty({ enum: API_KEY_SCOPES, isArray: true, minItems: 1, uniqueItems: true })
  @IsArray()
  @ArrayNotEmpty({ message: 'scopes must name at least one scope' })
  @ArrayMaxSize(API_KEY_SCOPES.length)
  @ArrayUnique({ message: 'scopes must not repeat a scope' })
  @IsIn(API_KEY_SCOPES as unknown as string[], {
    each: true,
    message: `each scope must be one of ${API_KEY_SCOPES.join(', ')}`,
  })
  scopes: ApiKeyScope[];

  @ApiPropertyOptional({
    type: 'string',
    format: 'uuid',
    nullable: true,
    description:
      'The team the key acts for (the caller must be a member; a viewer’s key holds read scopes only)',
  })
  @IsOptional()
  @IsString()
  @MaxLength(36)
  team?: string | null;

  @ApiPropertyOptional({
    type: 'string',
    format: 'date-time',
    nullable: true,
    description: 'When the key stops working (in the future)',
  })
  @IsOptional()
  @IsDateString(
    { strict: true },
    { message: 'expiresAt must be an ISO 8601 date-time', ...withErrorKey('expire_invalid') },
  )
  @IsStorableDate()
  expiresAt?: string | null;
}
