import { TeamRefDto } from '../../access/team-ref.dto';
import { ApiProperty, ApiPropertyOptional, PartialType, PickType } from '@nestjs/swagger';
import { IsBoolean, IsOptional, IsString, IsUUID, MaxLength } from 'class-validator';
import { withErrorKey } from '../../common/validation';
import { ShortOwnerDto } from '../../account/dto/owner.dto';
import { QueryText } from '../../common/query';
import { MAX_URL_LENGTH } from '../../shared/limits';
import { MAX_HOST_LENGTH } from '../domain-host';

/** How a domain is verified and how its checks went. */
export class DomainVerificationDto {
  @ApiProperty({ description: 'The TXT record to create', example: '_url-shorter.go.example.com' })
  record: string;
  @ApiProperty({ description: 'The TXT record’s value', example: 'url-shorter-verify=3fJ…' })
  value: string;
  @ApiProperty()
  token: string;
  @ApiProperty({
    description: 'Where the domain should point (a CNAME, or A/AAAA records of this host)',
    example: 'short.example',
  })
  target: string;
  @ApiProperty({ type: 'string', format: 'date-time', nullable: true })
  checkedAt: string | null;
  @ApiProperty({ type: 'string', format: 'date-time', nullable: true })
  failingSince: string | null;
  @ApiProperty({
    type: 'string',
    nullable: true,
    enum: ['dns_no_record', 'dns_token_mismatch', 'dns_timeout', 'dns_failed'],
    description: 'Why the last check failed',
  })
  reason: string | null;
}

export class DomainDto {
  @ApiProperty({ format: 'uuid' })
  id: string;
  @ApiProperty({ example: 'go.example.com' })
  host: string;
  @ApiProperty({ type: ShortOwnerDto, nullable: true, description: 'null: shared by an admin' })
  owner: ShortOwnerDto | null;

  @ApiProperty({
    type: TeamRefDto,
    nullable: true,
    description:
      'The team the domain belongs to (its editors and owners use and manage it); null: none',
  })
  team: TeamRefDto | null;
  @ApiProperty()
  verified: boolean;
  @ApiProperty({ description: 'false: disabled; its links answer the not-found redirect' })
  enabled: boolean;
  @ApiProperty({ type: 'string', nullable: true, description: 'Where https://{host}/ goes' })
  homeRedirect: string | null;
  @ApiProperty({ type: 'string', nullable: true, description: 'Where unknown codes go' })
  notFoundRedirect: string | null;
  @ApiProperty({
    type: 'string',
    format: 'uuid',
    nullable: true,
    description: 'The link page that https://{host}/ shows (instead of the home redirect)',
  })
  homePage: string | null;
  @ApiProperty({ type: DomainVerificationDto })
  verification: DomainVerificationDto;
  @ApiProperty({ type: 'string', format: 'date-time' })
  createdAt: string;
}

/** The redirects of a domain (absolute http(s) URLs; null: this service's pages). */
export class DomainRedirectsDto {
  @ApiPropertyOptional({ type: 'string', nullable: true, maxLength: MAX_URL_LENGTH })
  @IsOptional()
  @IsString()
  @MaxLength(MAX_URL_LENGTH)
  homeRedirect?: string | null;

  @ApiPropertyOptional({ type: 'string', nullable: true, maxLength: MAX_URL_LENGTH })
  @IsOptional()
  @IsString()
  @MaxLength(MAX_URL_LENGTH)
  notFoundRedirect?: string | null;
}

export class CreateDomainDto extends DomainRedirectsDto {
  @ApiProperty({ maxLength: MAX_HOST_LENGTH, example: 'go.example.com' })
  @IsString()
  @MaxLength(MAX_HOST_LENGTH * 4)
  host: string;

  @ApiPropertyOptional({
    description: 'Admins: a shared domain every user may use (verified at once)',
  })
  @IsOptional()
  @IsBoolean()
  shared?: boolean;

  @ApiPropertyOptional({
    description:
      'The team the domain is for (an id of a team where the caller is owner or editor); absent: the caller’s own (a team key: its team)',
    maxLength: 36,
  })
  @IsOptional()
  @IsString()
  @MaxLength(36)
  team?: string;
}

export class UpdateDomainDto extends PartialType(
  PickType(DomainRedirectsDto, ['homeRedirect', 'notFoundRedirect'] as const),
) {
  @ApiPropertyOptional({ description: 'Admins: enable or disable the domain' })
  @IsOptional()
  @IsBoolean()
  enabled?: boolean;

  @ApiPropertyOptional({
    type: 'string',
    format: 'uuid',
    nullable: true,
    description:
      'A link page that the domain’s `/` shows: a page of the domain’s owner or team (a shared domain: any page); null clears (else 400, `fieldErrorKeys.homePage` field_invalid)',
  })
  @IsOptional()
  @IsUUID('4', withErrorKey('field_invalid'))
  homePage?: string | null;
}

/** `GET /api/domains/allowed?domain=`: the host a TLS proxy asks a certificate for. */
export class DomainAllowedQueryDto {
  @QueryText({ required: true, example: 'go.example.com' })
  domain?: string;
}
