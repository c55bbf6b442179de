import { ApiProperty, ApiPropertyOptional, OmitType, PartialType } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsIn,
  IsOptional,
  IsString,
  IsUUID,
  MaxLength,
  ValidateNested,
} from 'class-validator';
import { TeamRefDto } from '../../access/team-ref.dto';
import { QueryText } from '../../common/query';
import { withErrorKey } from '../../common/validation';
import { CODE_MAX_LENGTH } from '../../shared/limits';
import {
  PAGE_DESCRIPTION_MAX,
  PAGE_LABEL_MAX,
  PAGE_LINKS_MAX,
  PAGE_THEMES,
  PAGE_TITLE_MAX,
  type PageTheme,
} from '../../shared/pages';

/** One link of a page as the API answers it: the short it follows, its label and how it shows. */
export class PageLinkDto {
  @ApiProperty({ format: 'uuid' })
  shortId: string;
  @ApiProperty({ type: 'string', nullable: true, maxLength: PAGE_LABEL_MAX })
  label: string | null;
  @ApiProperty({ example: 'aB3dE5f' })
  code: string;
  @ApiProperty({ type: 'string', nullable: true, description: "The short's name" })
  name: string | null;
  @ApiProperty({ example: 'http://localhost:8080/s/aB3dE5f' })
  shortUrl: string;
  @ApiProperty({
    description:
      'false: left out of the public page now (the short expired, ran out of uses or is flagged dangerous)',
  })
  shown: boolean;
}

export class PageDto {
  @ApiProperty({ format: 'uuid' })
  id: string;
  @ApiProperty({ example: 'herbst' })
  slug: string;
  @ApiProperty({
    description: 'The public page: `{BASE_URL}/p/{slug}`',
    example: 'http://localhost:8080/p/herbst',
  })
  url: string;
  @ApiProperty({ maxLength: PAGE_TITLE_MAX })
  title: string;
  @ApiProperty({ type: 'string', nullable: true, maxLength: PAGE_DESCRIPTION_MAX })
  description: string | null;
  @ApiProperty({ enum: PAGE_THEMES })
  theme: PageTheme;
  @ApiProperty({ type: TeamRefDto, nullable: true, description: 'null: the caller’s own space' })
  team: TeamRefDto | null;
  @ApiProperty({ type: [PageLinkDto], description: 'In the page’s order' })
  links: PageLinkDto[];
  @ApiProperty({ type: 'string', format: 'date-time' })
  createdAt: string;
  @ApiProperty({ type: 'string', format: 'date-time' })
  updatedAt: string;
}

export class PageLinkInputDto {
  @ApiProperty({
    format: 'uuid',
    description: 'A short the caller may read, of the page’s space (a team page: the team’s)',
  })
  @IsUUID('4', withErrorKey('page_link_invalid'))
  shortId: string;

  @ApiPropertyOptional({
    type: 'string',
    nullable: true,
    maxLength: PAGE_LABEL_MAX,
    description: 'The text shown; empty or absent: the short’s name, else its code',
  })
  @IsOptional()
  @IsString()
  @MaxLength(PAGE_LABEL_MAX)
  label?: string | null;
}

export class CreatePageDto {
  @ApiProperty({
    maxLength: CODE_MAX_LENGTH,
    pattern: '^[A-Za-z0-9_-]{3,64}$',
    description:
      'The public path `/p/{slug}`: the rules of a custom code (malformed: 400 slug_invalid; a reserved word: 400 slug_reserved; taken: 409 slug_exists)',
    example: 'herbst',
  })
  @IsString(withErrorKey('slug_invalid'))
  @MaxLength(4 * CODE_MAX_LENGTH, withErrorKey('slug_invalid'))
  slug: string;

  @ApiProperty({ minLength: 1, maxLength: PAGE_TITLE_MAX })
  @IsString()
  @MaxLength(4 * PAGE_TITLE_MAX)
  title: string;

  @ApiPropertyOptional({ type: 'string', nullable: true, maxLength: PAGE_DESCRIPTION_MAX })
  @IsOptional()
  @IsString()
  @MaxLength(PAGE_DESCRIPTION_MAX)
  description?: string | null;

  @ApiPropertyOptional({
    description:
      'The team the page is for (an id of a team where the caller is owner or editor); absent: the caller’s own (a team key: its team)',
    maxLength: 36,
  })
  @IsOptional()
  @IsString()
  @MaxLength(36)
  team?: string;

  @ApiProperty({ type: [PageLinkInputDto], maxItems: PAGE_LINKS_MAX })
  @IsArray()
  @ArrayMaxSize(PAGE_LINKS_MAX)
  @ValidateNested({ each: true })
  @Type(() => PageLinkInputDto)
  links: PageLinkInputDto[];

  @ApiProperty({ enum: PAGE_THEMES })
  @IsIn(PAGE_THEMES)
  theme: PageTheme;
}

/**
 * `PATCH /api/pages/{id}`: any of the create's fields; `links` replaces the list; `team` moves the
 * page between the caller's own space (null) and a team he may write in (CONTRACT "Teams", as a
 * short moves).
 */
export class UpdatePageDto extends PartialType(OmitType(CreatePageDto, ['team'] as const)) {
  @ApiPropertyOptional({
    type: 'string',
    nullable: true,
    maxLength: 36,
    description:
      'Moves the page: a team where the caller is owner or editor, or null for the caller’s own space. Its links must be shorts of that space (send `links` along), else 400 page_link_invalid',
  })
  @IsOptional()
  @IsString()
  @MaxLength(36)
  team?: string | null;
}

export class PageListQueryDto {
  @QueryText({
    description:
      'A team’s pages (its id; the caller must be a member) instead of the caller’s own and his teams’',
  })
  @IsOptional()
  @MaxLength(36)
  team?: string;
}
