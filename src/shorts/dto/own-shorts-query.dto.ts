import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Expose, Transform } from 'class-transformer';
import { ArrayMaxSize, IsOptional, MaxLength, ValidateBy } from 'class-validator';
import { PageQueryDto, sortDescription } from '../../common/paging';
import { allValues, QueryEnum, QueryText } from '../../common/query';
import { withErrorKey } from '../../common/validation';
import { MAIN_HOST_FILTER } from '../../shared/domains';
import { HEALTH_FILTERS, type HealthFilter } from '../../shared/link-health';
import { cleanTag, isValidTag, MAX_TAGS, TAG_MAX_LENGTH } from '../../shared/tags';

/**
 * A repeatable `tag` parameter (`?tag=a&tag=b`): every value that is not blank, at most MAX_TAGS
 * (else `too_many_tags`), each a tag as a short may carry it (else `tag_invalid`).
 */
function QueryTags(description: string): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({
      type: 'array',
      items: { type: 'string', maxLength: TAG_MAX_LENGTH, example: 'herbst' },
      maxItems: MAX_TAGS,
      description,
    }),
    Expose(),
    Transform(({ value }: { value: unknown }) => allValues(value).filter((t) => t.trim() !== '')),
    ArrayMaxSize(MAX_TAGS, {
      message: `at most ${MAX_TAGS} tags`,
      ...withErrorKey('too_many_tags'),
    }),
    ValidateBy(
      {
        name: 'tags',
        validator: {
          validate: (v: unknown) =>
            Array.isArray(v) && v.every((t) => typeof t === 'string' && isValidTag(cleanTag(t))),
          defaultMessage: () =>
            `each tag must be 1 to ${TAG_MAX_LENGTH} characters of letters, digits, spaces, -, _ and .`,
        },
      },
      withErrorKey('tag_invalid'),
    ),
  );
}

/** The fields the own list may be sorted by (the controller maps each to its column). */
export const OWN_SORT_FIELDS = [
  'id',
  'domain',
  'code',
  'name',
  'url',
  'maxUses',
  'uses',
  'createdAt',
  'expireAt',
  'dangers',
  'visits',
] as const;
export type OwnSortField = (typeof OWN_SORT_FIELDS)[number];
export const OWN_DEFAULT_SORT = 'createdAt,desc';

/** `GET /api/code`: paging, sort over OWN_SORT_FIELDS, a search text and a domain. */
export class OwnShortsQueryDto extends PageQueryDto({
  fields: OWN_SORT_FIELDS,
  description: sortDescription(OWN_SORT_FIELDS, OWN_DEFAULT_SORT),
}) {
  @QueryText({ description: 'Matches code, name and url (case-insensitive)' })
  search?: string;

  @QueryText({
    description: `Only the shorts on this own domain (a host), or on this service's host with ${MAIN_HOST_FILTER} (as Shlink's domain filter)`,
  })
  @IsOptional()
  @MaxLength(253)
  domain?: string;

  @QueryEnum(HEALTH_FILTERS, {
    description: 'Only the shorts whose link health is broken',
    message: 'must be broken',
  })
  health?: HealthFilter;

  @QueryText({
    description:
      'A team’s shorts (its id; the caller must be a member) instead of the caller’s own space',
  })
  @IsOptional()
  @MaxLength(36)
  team?: string;

  @QueryTags(
    `Only the shorts that carry every one of these tags (repeat the parameter: \`?tag=a&tag=b\`; case-insensitive; at most ${MAX_TAGS})`,
  )
  tag: string[];
}
