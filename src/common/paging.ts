import { applyDecorators, type Type } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse, ApiProperty, getSchemaPath } from '@nestjs/swagger';
import { BadRequestError } from './errors';
import { QueryInt, QueryList } from './query';
import { readQuery } from './validation';

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

/** The query of a paged list as the DTO reads it (page and size checked, sort still raw). */
export interface PageQuery {
  page: number;
  size: number;
  sort: string[];
}

/**
 * The paging parameters of a list (`@Query() dto`): page from 0, size from 1 (above 250 reads as
 * 250), repeated sort. A bad page or size is a plain 400 (`page must be an integer of at least 0`);
 * the sort fields are resolved against the route's allow-list by `pageRequest`.
 */
export function PageQueryDto(sort: { description: string; fields?: readonly string[] }) {
  class PageQueryDto implements PageQuery {
    @QueryInt({
      default: 0,
      minimum: 0,
      digits: 9,
      message: 'page must be an integer of at least 0',
      asDetail: 'paging_invalid',
    })
    page: number;

    @QueryInt({
      default: DEFAULT_PAGE_SIZE,
      minimum: 1,
      maximum: MAX_PAGE_SIZE,
      capAtMaximum: true,
      digits: 9,
      message: 'size must be an integer of at least 1',
      asDetail: 'paging_invalid',
    })
    size: number;

    @QueryList({
      items: {
        type: 'string',
        ...(sort.fields ? { pattern: `^(${sort.fields.join('|')})(,(asc|desc))?$` } : {}),
      },
      description: sort.description,
    })
    sort: string[];
  }
  return PageQueryDto;
}

/** The description of a sort over a fixed allow-list. */
export function sortDescription(fields: readonly string[], defaultSort: string): string {
  return `Repeatable field,asc|desc; fields: ${fields.join(', ')}; default ${defaultSort}`;
}

/** Paging without a fixed allow-list (the spec's tests and plain query objects). */
const AnyPageQueryDto = PageQueryDto({ description: 'Repeatable field,asc|desc' });

/**
 * The page a checked query asks for: its sort resolved against the allow-list (unknown sort fields
 * or directions → 400; the default sort when none is given).
 */
export function pageRequest(query: PageQuery, opts: PagingOptions): PageRequest {
  const { page, size } = query;
  const raw = query.sort.filter((s) => s.trim() !== '');
  const sort: SortOrder[] = [];
  const seen = new Set<string>();
  for (const s of raw.length ? raw : opts.defaultSort) {
    const [field, dir, ...rest] = s.split(',').map((x) => x.trim());
    if (rest.length)
      throw new BadRequestError(`Invalid sort "${s}": use field,asc or field,desc`, 'sort_invalid');
    if (!Object.prototype.hasOwnProperty.call(opts.sortable, field)) {
      throw new BadRequestError(`Unknown sort field: ${field}`, 'sort_field_unknown');
    }
    const d = (dir ?? 'asc').toLowerCase();
    if (d !== 'asc' && d !== 'desc') {
      throw new BadRequestError(`Invalid sort direction: ${dir}`, 'sort_invalid');
    }
    if (seen.has(field)) continue;
    seen.add(field);
    sort.push({ field, column: opts.sortable[field], direction: d === 'asc' ? 'ASC' : 'DESC' });
  }
  return { page, size, sort, offset: page * size };
}

/**
 * Parses `page`, `size` and repeated `sort` from a plain query object, as a paged route's DTO and
 * `pageRequest` do. Unknown sort fields or directions → 400; size above 250 is capped.
 */
export function parsePageRequest(query: Record<string, unknown>, opts: PagingOptions): PageRequest {
  return pageRequest(readQuery(AnyPageQueryDto, query), opts);
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
