import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsOptional, IsString, MaxLength, ValidateNested } from 'class-validator';
import { PageMetaDto, PageQueryDto } from '../../common/paging';
import { ADMIN_ENTITY_NAMES, MAX_QUERY_LENGTH } from '../query';

export class QueryStringDto {
  @ApiProperty({
    description:
      'Lucene-style query: field:value, "quoted phrases", AND/OR/NOT (or -), parentheses, * wildcards, ' +
      'field:>n / field:<n on numbers and dates, field:[a TO b] ranges, free text over the text fields. Empty: everything.',
    example: 'dangerous:true AND url:*example.com*',
    maxLength: MAX_QUERY_LENGTH,
  })
  @IsString()
  @MaxLength(MAX_QUERY_LENGTH)
  query: string;
}

export class SearchRequestDto {
  @ApiPropertyOptional({ type: QueryStringDto })
  @IsOptional()
  @ValidateNested()
  @Type(() => QueryStringDto)
  query_string?: QueryStringDto;
}

export class AdminFieldDto {
  @ApiProperty({ example: 'createdAt' })
  name: string;
  @ApiProperty({ enum: ['text', 'keyword', 'number', 'boolean', 'date', 'enum', 'list'] })
  type: string;
  @ApiProperty()
  description: string;
  @ApiProperty()
  editable: boolean;
  @ApiProperty()
  nullable: boolean;
  @ApiProperty()
  searchable: boolean;
  @ApiProperty()
  sortable: boolean;
  @ApiPropertyOptional({ type: [String], description: 'Allowed values of enum and list fields' })
  values?: readonly string[];
}

export class AdminEntityDto {
  @ApiProperty({ enum: ADMIN_ENTITY_NAMES })
  name: string;
  @ApiProperty()
  description: string;
  @ApiProperty({ description: 'PUT with a new UUID creates an entry' })
  creatable: boolean;
  @ApiProperty()
  deletable: boolean;
  @ApiProperty({ type: [AdminFieldDto] })
  fields: AdminFieldDto[];
}

/** A page of entries (the page fields of every paged list, common/paging.ts). */
export class AdminPageDto extends PageMetaDto {
  @ApiProperty({
    type: 'array',
    items: { type: 'object', additionalProperties: true },
    description: 'Entries with the fields of the entity',
  })
  content: Record<string, unknown>[];
}

/** `POST /api/admin/entity/{entity}/search`: paging; the sort fields are the entity's (checked by the service). */
export class AdminSearchQueryDto extends PageQueryDto({
  description: 'Repeatable field,asc|desc over the fields of the entity (GET /api/admin/entity)',
}) {}
