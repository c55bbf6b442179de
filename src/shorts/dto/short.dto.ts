import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { MAX_RULES } from '../../shared/redirect-rules';
import { RedirectRuleDto } from './redirect-rule.dto';

export class ShortOwnerDto {
  @ApiProperty({ format: 'uuid' })
  id: string;
  @ApiProperty()
  username: string;
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
}
