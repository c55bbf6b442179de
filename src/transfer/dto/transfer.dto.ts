import {
  ApiProperty,
  type ApiPropertyOptions,
  ApiPropertyOptional,
  IntersectionType,
  PickType,
} from '@nestjs/swagger';
import {
  ArrayMaxSize,
  IsArray,
  IsObject,
  IsOptional,
  IsString,
  MaxLength,
  ValidateIf,
} from 'class-validator';
import { QueryEnum, QueryText } from '../../common/query';
import { ERROR_KEYS, type ErrorKey } from '../../shared/error-keys';
import { MAX_IMPORT_BYTES, MAX_IMPORT_ROWS } from '../../shared/limits';
import {
  EXPORT_COLUMNS,
  type ExportColumn,
  fieldsWith,
  SHORT_FIELDS,
  type ShortFieldName,
  type ShortFieldSpec,
} from '../../shared/short-fields';
import { ShortDto } from '../../shorts/dto/short.dto';

/** At most this many characters of CSV (the route's body limit is 2 MB). */
export const MAX_IMPORT_CSV_LENGTH = MAX_IMPORT_BYTES;

/** Absent is allowed; a JSON null is not (it is checked, and refused, as any other wrong type). */
const unlessAbsent = ValidateIf((_dto: unknown, value: unknown) => value !== undefined);

/** An import: a CSV text with a header row, or rows as objects (exactly one of them). */
export class ImportShortsDto {
  @ApiPropertyOptional({
    description:
      'CSV with a header row (`,` or `;`, quoted fields, a BOM); columns of our export, Shlink, YOURLS, Kutt or Bitly; at most 5,000 rows, 50 columns and 64 KiB per record',
    maxLength: MAX_IMPORT_CSV_LENGTH,
  })
  @unlessAbsent
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
  @unlessAbsent
  @IsArray()
  @ArrayMaxSize(MAX_IMPORT_ROWS)
  @IsObject({ each: true })
  rows?: Array<Record<string, unknown>>;

  @ApiPropertyOptional({
    description:
      'The team every row goes to (an id of a team where the caller is owner or editor); absent: each row’s `team` column where the caller may write to it, else the caller’s own space',
    maxLength: 36,
  })
  @unlessAbsent
  @IsString()
  @MaxLength(36)
  team?: string;
}

export class SkippedRowDto {
  @ApiProperty({ description: 'Row number, from 1 (the header row not counted)' })
  row: number;
  @ApiProperty({ type: 'string', nullable: true })
  code: string | null;
  @ApiProperty({ description: 'Why the row was not created (the create rules’ message)' })
  reason: string;
  @ApiProperty({
    enum: [...ERROR_KEYS],
    enumName: 'ErrorKey',
    description: 'The stable key of why a row of an import was skipped (beside `reason`)',
  })
  errorKey: ErrorKey;
}

export class ImportResultDto {
  @ApiProperty()
  created: number;
  @ApiProperty({ type: [SkippedRowDto] })
  skipped: SkippedRowDto[];
}

/** What the export adds to the owner's view of a short: the target always and both counts. */
class ExportedCounts {
  @ApiProperty({ description: 'The target (the owner always sees it)' })
  url: string;
  @ApiProperty({ type: 'integer', description: 'Uses counted (follows that reached the target)' })
  uses: number;
  @ApiProperty({ type: 'integer', description: 'Visits in the statistics (bots excluded)' })
  visits: number;
}

/** The columns the export takes from ShortDto as the owner's view shows them. */
const FROM_SHORT_DTO = [
  'id',
  'domain',
  'code',
  'name',
  'hasPassword',
  'maxUses',
  'createdAt',
  'expireAt',
] as const;

/** The other exported fields (owner-only ones, new ones): as the export writes them. */
type ExportedFieldName = Extract<
  Exclude<ExportColumn, (typeof FROM_SHORT_DTO)[number] | keyof ExportedCounts>,
  ShortFieldName
>;
type ExportedFieldValues = {
  [K in ExportedFieldName]:
    ((typeof SHORT_FIELDS)[K]['type'] extends 'integer' ? number : string) | null;
};

/** How the export writes a field of each type: rules as JSON text, tags comma-separated, none as null. */
function exportSchemaOf(spec: ShortFieldSpec): ApiPropertyOptions {
  if (spec.type === 'rules') {
    return {
      type: 'string',
      nullable: true,
      description:
        'The redirect rules as JSON text (`[{"conditions":[{"type","value"}],"url"}]`); null: none',
    };
  }
  if (spec.type === 'preview') {
    return {
      type: 'string',
      nullable: true,
      description:
        'The social preview as JSON text of its non-empty parts (`{"title","description","image"}`); null: none',
    };
  }
  if (spec.type === 'tags') {
    return {
      type: 'string',
      nullable: true,
      description: 'The tags, comma-separated in their order; null: none',
      example: 'Herbst,Kampagne',
    };
  }
  if (spec.type === 'qr-style') {
    return {
      type: 'string',
      nullable: true,
      description:
        'The default QR style as `fg,bg,ec,margin` (an import also reads a JSON object); null: none',
      example: '1d3557,f1faee,M,4',
    };
  }
  return {
    type: spec.type === 'integer' ? 'integer' : 'string',
    ...(spec.type === 'date-time' ? { format: 'date-time' } : {}),
    nullable: true,
    description: spec.shown?.description ?? spec.description,
  } as ApiPropertyOptions;
}

/** The exported fields that neither ShortDto's columns nor the counts give (rows with `exported`). */
const ExportedFields = class ExportedFields {} as new () => ExportedFieldValues;
const taken = new Set<string>([...FROM_SHORT_DTO, 'url', 'uses', 'visits']);
for (const name of fieldsWith('exported')) {
  if (!taken.has(name))
    ApiProperty(exportSchemaOf(SHORT_FIELDS[name]))(ExportedFields.prototype, name);
}

/** One short as the export writes it: the columns EXPORT_COLUMNS names. */
export class ExportedShortDto extends IntersectionType(
  PickType(ShortDto, FROM_SHORT_DTO),
  ExportedCounts,
  ExportedFields,
) {}

// The export's columns are exactly the DTO's properties (the compiler checks both ways).
const _columnsAreProperties: ReadonlyArray<keyof ExportedShortDto> = EXPORT_COLUMNS;
const _propertiesAreColumns: [Exclude<keyof ExportedShortDto, ExportColumn>] extends [never]
  ? true
  : never = true;

export const EXPORT_FORMATS = ['csv', 'json'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** `GET /api/code/export?format=csv|json` (default csv). */
export class ExportQueryDto {
  @QueryEnum(EXPORT_FORMATS, {
    default: 'csv',
    message: 'must be csv or json',
    description: 'Default csv',
  })
  format: ExportFormat;

  @QueryText({ description: 'A team’s shorts (its id; members) instead of the caller’s own space' })
  @IsOptional()
  @MaxLength(36)
  team?: string;
}
