import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, Length, Matches, MaxLength } from 'class-validator';
import { TeamRefDto } from '../../access/team-ref.dto';
import { QueryText } from '../../common/query';
import { withErrorKey } from '../../common/validation';
import { UTM_NAME_MAX, UTM_TEXT_PATTERN, UTM_VALUE_MAX } from '../../shared/utm';

const NO_CONTROL = 'must not contain control characters';
/** A name with something besides blanks and no control characters. */
const NAME_PATTERN = /^(?=[\s\S]*\S)\P{Cc}*$/u;

/** One UTM value of a template: optional, at most 200 characters, no control characters. */
function UtmValue(param: string): PropertyDecorator {
  return (target: object, key: string | symbol) => {
    ApiPropertyOptional({
      type: 'string',
      nullable: true,
      maxLength: UTM_VALUE_MAX,
      description: `The value of \`${param}\` (null or absent: applying the template removes it)`,
      example: param === 'utm_source' ? 'newsletter' : undefined,
    })(target, key);
    IsOptional()(target, key);
    IsString(withErrorKey('field_invalid'))(target, key);
    MaxLength(UTM_VALUE_MAX, withErrorKey('field_invalid'))(target, key);
    Matches(UTM_TEXT_PATTERN, {
      message: `$property ${NO_CONTROL}`,
      ...withErrorKey('field_invalid'),
    })(target, key);
  };
}

export class UtmTemplateDto {
  @ApiProperty({ format: 'uuid' })
  id: string;
  @ApiProperty({ maxLength: UTM_NAME_MAX, example: 'Newsletter Herbst' })
  name: string;
  @ApiProperty({ type: 'string', nullable: true, maxLength: UTM_VALUE_MAX, example: 'newsletter' })
  source: string | null;
  @ApiProperty({ type: 'string', nullable: true, maxLength: UTM_VALUE_MAX, example: 'email' })
  medium: string | null;
  @ApiProperty({ type: 'string', nullable: true, maxLength: UTM_VALUE_MAX, example: 'herbst' })
  campaign: string | null;
  @ApiProperty({ type: 'string', nullable: true, maxLength: UTM_VALUE_MAX })
  term: string | null;
  @ApiProperty({ type: 'string', nullable: true, maxLength: UTM_VALUE_MAX })
  content: string | null;
  @ApiProperty({ type: TeamRefDto, nullable: true, description: 'null: the caller’s own space' })
  team: TeamRefDto | null;
  @ApiProperty({ type: 'string', format: 'date-time' })
  createdAt: string;
}

export class CreateUtmTemplateDto {
  @ApiProperty({ minLength: 1, maxLength: UTM_NAME_MAX, example: 'Newsletter Herbst' })
  @IsString(withErrorKey('name_invalid'))
  @Length(1, UTM_NAME_MAX, withErrorKey('name_invalid'))
  @Matches(NAME_PATTERN, {
    message: `name must not be blank or contain control characters`,
    ...withErrorKey('name_invalid'),
  })
  name: string;

  @UtmValue('utm_source')
  source?: string | null;

  @UtmValue('utm_medium')
  medium?: string | null;

  @UtmValue('utm_campaign')
  campaign?: string | null;

  @UtmValue('utm_term')
  term?: string | null;

  @UtmValue('utm_content')
  content?: string | null;

  @ApiPropertyOptional({
    description:
      'The team the template is for (an id of a team where the caller is owner or editor); absent: the caller’s own (a team key: its team)',
    maxLength: 36,
  })
  @IsOptional()
  @IsString()
  @MaxLength(36)
  team?: string;
}

export class UtmTemplateListQueryDto {
  @QueryText({
    description:
      'A team’s templates only (its id; the caller must be a member) instead of the caller’s own and his teams’',
  })
  @IsOptional()
  @MaxLength(36)
  team?: string;
}
