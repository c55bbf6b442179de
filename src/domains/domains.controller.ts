import { Body, Controller, Delete, Get, Param, Patch, Post, Query } from '@nestjs/common';
import { Scope } from '../common/auth.guard';
import { ApiBody, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentActor, type Actor } from '../common/actor';
import { ApiProblems } from '../common/api-problems';
import { ApiIdParam, NoContent, PostAction, UserRoute, uuidParam } from '../common/routes';
import { NotFoundError } from '../common/errors';
import { NoStore } from '../common/no-store';
import { DomainService } from './domain.service';
import {
  CreateDomainDto,
  DomainAllowedQueryDto,
  DomainDto,
  UpdateDomainDto,
} from './dto/domain.dto';

const uuid = uuidParam();

/** Own domains (CONTRACT "Own domains"). */
@ApiTags('domains')
@Controller('api/domains')
export class DomainsController {
  constructor(private readonly domains: DomainService) {}

  @Get('allowed')
  @Scope('domains:read')
  @ApiOperation({
    operationId: 'domainAllowed',
    summary:
      'Public: 200 for this service’s host or a verified, enabled domain, else 404 (for a TLS proxy’s on-demand certificates)',
  })
  @ApiOkResponse({ description: 'A certificate may be issued for this host' })
  @ApiProblems(404)
  @NoStore()
  domainAllowed(@Query() { domain }: DomainAllowedQueryDto): void {
    if (!this.domains.allowed(domain)) {
      throw new NotFoundError('Not a domain of this service', 'domain_unknown');
    }
  }

  @Get()
  @UserRoute()
  @Scope('domains:read')
  @ApiOperation({
    operationId: 'listDomains',
    summary: 'The domains the caller may use: shared and own (admins: all)',
  })
  @ApiOkResponse({ type: [DomainDto] })
  @NoStore()
  listDomains(@CurrentActor() actor: Actor | null): Promise<DomainDto[]> {
    return this.domains.list(actor);
  }

  @Post()
  @UserRoute()
  @Scope('domains:write')
  @ApiOperation({
    operationId: 'createDomain',
    summary:
      'Add an own domain, pending until verified (several users may claim one host; a host verified by a domain: 409 domain_taken; more than LIMIT_DOMAINS: 409 quota_exceeded); admins: a shared one with shared: true, verified at once',
  })
  @ApiBody({ type: CreateDomainDto })
  @ApiCreatedResponse({ type: DomainDto })
  @ApiProblems(400, 409)
  createDomain(
    @Body() dto: CreateDomainDto,
    @CurrentActor() actor: Actor | null,
  ): Promise<DomainDto> {
    return this.domains.create(dto, actor);
  }

  @Patch(':id')
  @UserRoute()
  @Scope('domains:write')
  @ApiOperation({
    operationId: 'updateDomain',
    summary: 'Change a domain’s redirects (admins: also enable or disable it)',
  })
  @ApiIdParam()
  @ApiBody({ type: UpdateDomainDto })
  @ApiOkResponse({ type: DomainDto })
  @ApiProblems(400, 404)
  updateDomain(
    @Param('id', uuid) id: string,
    @Body() dto: UpdateDomainDto,
    @CurrentActor() actor: Actor | null,
  ): Promise<DomainDto> {
    return this.domains.update(id, dto, actor);
  }

  @PostAction(':id/verify')
  @UserRoute()
  @Scope('domains:write')
  @ApiOperation({
    operationId: 'verifyDomain',
    summary:
      'Check the domain’s TXT record now; answers the domain with the outcome (limited per user by LIMIT_DOMAIN_VERIFY; a host another domain verified first: 409 domain_taken, and this claim is removed)',
  })
  @ApiIdParam()
  @ApiOkResponse({ type: DomainDto })
  @ApiProblems(400, 404, 409, 429)
  verifyDomain(
    @Param('id', uuid) id: string,
    @CurrentActor() actor: Actor | null,
  ): Promise<DomainDto> {
    return this.domains.verify(id, actor);
  }

  @Delete(':id')
  @NoContent()
  @UserRoute()
  @Scope('domains:write')
  @ApiOperation({
    operationId: 'deleteDomain',
    summary: 'Delete a domain (only when no short uses it: else 409 domain_in_use)',
  })
  @ApiIdParam()
  @ApiProblems(400, 404, 409)
  async deleteDomain(
    @Param('id', uuid) id: string,
    @CurrentActor() actor: Actor | null,
  ): Promise<void> {
    await this.domains.delete(id, actor);
  }
}
