import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ShortOwnerDto } from '../../account/dto/owner.dto';
import { MAX_RULES } from '../../shared/redirect-rules';
import { RedirectRuleDto } from './redirect-rule.dto';
import { BROKEN_AFTER_FAILURES, HEALTH_STATES, type HealthState } from '../../shared/link-health';

/** The link health of a short: how the checks of its target went (owners and admins only). */
export class ShortHealthDto {
  @ApiProperty({
    enum: HEALTH_STATES,
    enumName: 'HealthState',
    description: `ok: the last check got an answer that is no failure; broken: ${BROKEN_AFTER_FAILURES} failed checks in a row (any 4xx/5xx except 401, 403, 429, or no answer); unknown: not checked yet, failing fewer than ${BROKEN_AFTER_FAILURES} times in a row, or not checkable from this server`,
  })
  state: HealthState;
  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: 'The HTTP status of the last check; null: no answer (or not checked)',
    example: 200,
  })
  status: number | null;
  @ApiProperty({ type: 'string', format: 'date-time', nullable: true })
  checkedAt: string | null;
  @ApiProperty({
    type: 'string',
    format: 'date-time',
    nullable: true,
    description: 'The first of the failed checks in a row; null while the target answers',
  })
  failingSince: string | null;
}

/** The public shape of a short. `url` is null when it is withheld (password). */
export class ShortDto {
  @ApiProperty({ format: 'uuid' })
  id: string;
  @ApiProperty()
  code: string;
  @ApiProperty({
    type: 'string',
    nullable: true,
    description: 'The own domain the short lives on; null: this service’s host',
    example: 'go.example.com',
  })
  domain: string | null;
  @ApiProperty({
    description: 'The link to share ({BASE_URL}/s/{code}, or {scheme}://{domain}/{code})',
    example: 'https://short.example/s/aB3dE5f',
  })
  shortUrl: string;
  @ApiProperty({ type: 'string', nullable: true })
  name: string | null;
  @ApiProperty({
    type: 'string',
    nullable: true,
    description:
      'Null when password-protected and not unlocked, or when the short has maxUses (shown only to its owner and admins)',
  })
  url: string | null;
  @ApiProperty()
  hasPassword: boolean;
  @ApiProperty({ type: 'integer', nullable: true })
  maxUses: number | null;
  @ApiProperty({ type: 'string', format: 'date-time' })
  createdAt: string;
  @ApiProperty({ type: 'string', format: 'date-time', nullable: true })
  expireAt: string | null;
  @ApiProperty({ type: ShortOwnerDto, nullable: true })
  owner: ShortOwnerDto | null;
  @ApiProperty({ description: 'Flagged dangerous or blacklisted' })
  dangers: boolean;
  @ApiPropertyOptional({
    type: 'integer',
    description: 'Uses counted (follows that reached the target, bots excluded); owners only',
  })
  uses?: number;
  @ApiPropertyOptional({
    type: 'integer',
    description:
      'Visits in the statistics (bots excluded; older than the retention not counted); owners only',
  })
  visits?: number;
  @ApiPropertyOptional({
    type: 'string',
    nullable: true,
    description:
      'Where visitors go when the short has expired or is used up (null: the not-found page); owners only',
  })
  expiredUrl?: string | null;
  @ApiPropertyOptional({
    type: [RedirectRuleDto],
    maxItems: MAX_RULES,
    description: 'Redirect rules in order (empty: none); owners only',
  })
  rules?: RedirectRuleDto[];
  @ApiPropertyOptional({
    type: ShortHealthDto,
    description:
      'How the checks of the target went (logged-in shorts are checked about once a day); owners and admins only',
  })
  health?: ShortHealthDto;
}
