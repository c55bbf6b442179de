import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsObject, IsOptional, IsString, MaxLength } from 'class-validator';
import { IMPORT_ERROR_KEYS, type ImportErrorKey, MAX_IMPORT_ROWS } from '../import-rows';

/** At most this many characters of CSV (the route's body limit is 2 MB). */
export const MAX_IMPORT_CSV_LENGTH = 2 * 1024 * 1024;

/** An import: a CSV text with a header row, or rows as objects (exactly one of them). */
export class ImportShortsDto {
  @ApiPropertyOptional({
    description:
      'CSV with a header row (`,` or `;`, quoted fields, a BOM); columns of our export, Shlink, YOURLS, Kutt or Bitly; at most 5,000 rows, 50 columns and 64 KiB per record',
    maxLength: MAX_IMPORT_CSV_LENGTH,
  })
  @IsOptional()
  @IsString()
  @MaxLength(MAX_IMPORT_CSV_LENGTH)
  csv?: string;

  @ApiPropertyOptional({
    type: 'array',
    maxItems: MAX_IMPORT_ROWS,
    items: { type: 'object', additionalProperties: true },
    description:
      "Rows as objects, by the same column names, with cells as our CSV export writes them (its `'` before a formula start is taken back); at most 50 keys and 64 KiB of text per row",
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_IMPORT_ROWS)
  @IsObject({ each: true })
  rows?: Array<Record<string, unknown>>;
}

export class SkippedRowDto {
  @ApiProperty({ description: 'Row number, from 1 (the header row not counted)' })
  row: number;
  @ApiProperty({ type: 'string', nullable: true })
  code: string | null;
  @ApiProperty({ description: 'Why the row was not created (the create rules’ message)' })
  reason: string;
  @ApiProperty({
    enum: IMPORT_ERROR_KEYS,
    enumName: 'ImportErrorKey',
    description: 'The stable key of why a row of an import was skipped (beside `reason`)',
  })
  errorKey: ImportErrorKey;
}

export class ImportResultDto {
  @ApiProperty()
  created: number;
  @ApiProperty({ type: [SkippedRowDto] })
  skipped: SkippedRowDto[];
}

/** One short as the export writes it. */
export class ExportedShortDto {
  @ApiProperty({ format: 'uuid' })
  id: string;
  @ApiProperty()
  code: string;
  @ApiProperty({ type: 'string', nullable: true })
  name: string | null;
  @ApiProperty()
  url: string;
  @ApiProperty()
  hasPassword: boolean;
  @ApiProperty({ type: 'integer', nullable: true })
  maxUses: number | null;
  @ApiProperty({ type: 'integer' })
  uses: number;
  @ApiProperty({ type: 'integer', description: 'Visits in the statistics (bots excluded)' })
  visits: number;
  @ApiProperty({ type: 'string', format: 'date-time' })
  createdAt: string;
  @ApiProperty({ type: 'string', format: 'date-time', nullable: true })
  expireAt: string | null;
}
