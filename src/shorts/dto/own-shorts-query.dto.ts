import { IsOptional, MaxLength } from 'class-validator';
import { PageQueryDto, sortDescription } from '../../common/paging';
import { QueryEnum, QueryText } from '../../common/query';
import { MAIN_HOST_FILTER } from '../../shared/domains';
import { HEALTH_FILTERS, type HealthFilter } from '../../shared/link-health';

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
}
