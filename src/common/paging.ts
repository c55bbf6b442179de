import { applyDecorators, type Type } from '@nestjs/common';
import {
  ApiExtraModels,
  ApiOkResponse,
  ApiProperty,
  ApiQuery,
  getSchemaPath,
} from '@nestjs/swagger';
import { BadRequestError } from './errors';

/** Paging (docs/api.md#paging): page from 0, size default 20 and at most 250, repeated sort=field,asc|desc. */
export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 250;

export type SortDirection = 'ASC' | 'DESC';

export interface SortOrder {
  /** The API field name as requested (from the allow-list). */
  field: string;
  /** What the allow-list maps it to (a column / query-builder expression). */
  column: string;
  direction: SortDirection;
}

export interface PageRequest {
  page: number;
  size: number;
  sort: SortOrder[];
  /** Rows to skip (page * size). */
  offset: number;
}

export interface PagingOptions {
  /** API field name → column or query-builder expression. Only these may be sorted by. */
  sortable: Readonly<Record<string, string>>;
  /** Used when the request has no sort, e.g. ['createdAt,desc']. */
  defaultSort: readonly string[];
}

function values(v: unknown): string[] {
  if (v === undefined || v === null) return [];
  if (Array.isArray(v)) return v.filter((x): x is string => typeof x === 'string');
  return typeof v === 'string' ? [v] : [];
}

function intParam(name: string, raw: unknown, def: number, min: number): number {
  const v = values(raw)[0];
  if (v === undefined || v === '') return def;
  if (!/^\d{1,9}$/.test(v) || Number(v) < min) {
    throw new BadRequestError(`${name} must be an integer of at least ${min}`);
  }
  return Number(v);
}

/**
 * Parses `page`, `size` and repeated `sort` from a query object (works with the `simple` and the
 * `extended` query parser). Unknown sort fields or directions → 400; size above 250 is capped.
 */
export function parsePageRequest(query: Record<string, unknown>, opts: PagingOptions): PageRequest {
  const page = intParam('page', query.page, 0, 0);
  const size = Math.min(intParam('size', query.size, DEFAULT_PAGE_SIZE, 1), MAX_PAGE_SIZE);
  const raw = values(query.sort).filter((s) => s.trim() !== '');
  const sort: SortOrder[] = [];
  const seen = new Set<string>();
  for (const s of raw.length ? raw : opts.defaultSort) {
    const [field, dir, ...rest] = s.split(',').map((x) => x.trim());
    if (rest.length) throw new BadRequestError(`Invalid sort "${s}": use field,asc or field,desc`);
    if (!Object.prototype.hasOwnProperty.call(opts.sortable, field)) {
      throw new BadRequestError(`Unknown sort field: ${field}`);
    }
    const d = (dir ?? 'asc').toLowerCase();
    if (d !== 'asc' && d !== 'desc') throw new BadRequestError(`Invalid sort direction: ${dir}`);
    if (seen.has(field)) continue;
    seen.add(field);
    sort.push({ field, column: opts.sortable[field], direction: d === 'asc' ? 'ASC' : 'DESC' });
  }
  return { page, size, sort, offset: page * size };
}

/** Escapes `!`, `%` and `_` for a LIKE pattern used with `ESCAPE '!'` (portable: SQLite and MySQL). */
export function escapeLike(s: string): string {
  return s.replace(/[!%_]/g, (c) => `!${c}`);
}

/** `%term%` with wildcards escaped; pair with `LIKE :p ESCAPE '!'`. */
export function containsPattern(term: string): string {
  return `%${escapeLike(term)}%`;
}

/** The page object every paged list answers (docs/api.md#paging). */
export interface Page<T> {
  content: T[];
  number: number;
  numberOfElements: number;
  size: number;
  totalElements: number;
  totalPages: number;
  first: boolean;
  last: boolean;
  empty: boolean;
}

export function toPage<T>(
  content: T[],
  totalElements: number,
  req: Pick<PageRequest, 'page' | 'size'>,
): Page<T> {
  const totalPages = Math.ceil(totalElements / req.size);
  return {
    content,
    number: req.page,
    numberOfElements: content.length,
    size: req.size,
    totalElements,
    totalPages,
    first: req.page === 0,
    last: req.page >= totalPages - 1,
    empty: content.length === 0,
  };
}

/** OpenAPI shape of the page fields (content is added per model by ApiPageResponse). */
export class PageMetaDto {
  @ApiProperty({ type: 'integer', description: 'Page number, from 0' })
  number: number;
  @ApiProperty({ type: 'integer' })
  numberOfElements: number;
  @ApiProperty({ type: 'integer' })
  size: number;
  @ApiProperty({ type: 'integer' })
  totalElements: number;
  @ApiProperty({ type: 'integer' })
  totalPages: number;
  @ApiProperty()
  first: boolean;
  @ApiProperty()
  last: boolean;
  @ApiProperty()
  empty: boolean;
}

/** Documents page, size and repeated sort query parameters. */
export function ApiPaging(sortable: readonly string[], defaultSort: string) {
  return applyDecorators(
    ApiQuery({
      name: 'page',
      required: false,
      schema: { type: 'integer', minimum: 0, default: 0 },
    }),
    ApiQuery({
      name: 'size',
      required: false,
      schema: { type: 'integer', minimum: 1, maximum: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE },
    }),
    ApiQuery({
      name: 'sort',
      required: false,
      isArray: true,
      style: 'form',
      explode: true,
      schema: {
        type: 'array',
        items: { type: 'string', pattern: `^(${sortable.join('|')})(,(asc|desc))?$` },
      },
      description: `Repeatable field,asc|desc; fields: ${sortable.join(', ')}; default ${defaultSort}`,
    }),
  );
}

/** 200 response: a page of `model`. */
export function ApiPageResponse(model: Type<unknown>) {
  return applyDecorators(
    ApiExtraModels(PageMetaDto, model),
    ApiOkResponse({
      schema: {
        allOf: [
          { $ref: getSchemaPath(PageMetaDto) },
          {
            type: 'object',
            required: ['content'],
            properties: { content: { type: 'array', items: { $ref: getSchemaPath(model) } } },
          },
        ],
      },
    }),
  );
}
