import { Body, Controller, Delete, Get, Param, Post, Put } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentActor, type Actor } from '../common/actor';
import { ApiProblems } from '../common/api-problems';
import { RequireUser } from '../common/auth.guard';
import { NoStore } from '../common/no-store';
import { ApiIdParam, ApiSignedIn, NoContent, uuidParam } from '../common/routes';
import { ApiKeyService } from './apikey.service';
import { ApiKeyDto, ApiKeySummaryDto, CreateApiKeyDto, CreatedApiKeyDto } from './dto/apikey.dto';

export { ApiKeyDto } from './dto/apikey.dto';

/**
 * The spec's single key (the one ShareX uses): the key named `ShareX`. Session routes: a key
 * cannot reveal or renew keys (RequireUser without a scope refuses keys: 403 scope_missing).
 */
@ApiTags('account')
@ApiSignedIn()
@Controller('api/self/apikey')
export class ApiKeyController {
  constructor(private readonly keys: ApiKeyService) {}

  @Get()
  @RequireUser()
  @ApiOperation({ operationId: 'getApiKey', summary: 'Reveal the caller’s ShareX API key' })
  @ApiOkResponse({ type: ApiKeyDto })
  @ApiProblems(404)
  @NoStore()
  async getApiKey(@CurrentActor() actor: Actor): Promise<ApiKeyDto> {
    return { id: await this.keys.reveal(actor.id) };
  }

  @Put()
  @RequireUser()
  @ApiOperation({
    operationId: 'renewApiKey',
    summary:
      'Create or renew the ShareX API key (scopes shorts:read, shorts:write; the old one stops working at once; a new one counts against the 20 keys: 409 quota_exceeded)',
  })
  @ApiOkResponse({ type: ApiKeyDto })
  @ApiProblems(409)
  @NoStore()
  async renewApiKey(@CurrentActor() actor: Actor): Promise<ApiKeyDto> {
    return { id: await this.keys.renew(actor.id) };
  }
}

/** Several named, scoped keys (CONTRACT "API keys (several, named, scoped)"); session routes. */
@ApiTags('account')
@ApiSignedIn()
@Controller('api/self/apikeys')
export class ApiKeysController {
  constructor(private readonly keys: ApiKeyService) {}

  @Get()
  @RequireUser()
  @ApiOperation({
    operationId: 'listApiKeys',
    summary: 'The caller’s API keys, oldest first (never the key itself)',
  })
  @ApiOkResponse({ type: [ApiKeySummaryDto] })
  @NoStore()
  listApiKeys(@CurrentActor() actor: Actor): Promise<ApiKeySummaryDto[]> {
    return this.keys.list(actor.id);
  }

  @Post()
  @RequireUser()
  @ApiOperation({
    operationId: 'createApiKey',
    summary:
      'Create a named key with scopes, optionally for a team (member; a viewer: read scopes only) and with an expiry; the key is shown in this answer only (name taken or ShareX: 409 api_key_name_exists; more than 20 keys: 409 quota_exceeded)',
  })
  @ApiBody({ type: CreateApiKeyDto })
  @ApiCreatedResponse({ type: CreatedApiKeyDto })
  @ApiProblems(400, 409, 429)
  @NoStore()
  createApiKey(
    @Body() dto: CreateApiKeyDto,
    @CurrentActor() actor: Actor,
  ): Promise<CreatedApiKeyDto> {
    return this.keys.create(actor, dto);
  }

  @Delete(':id')
  @NoContent('Revoked at once, on every instance')
  @RequireUser()
  @ApiOperation({ operationId: 'deleteApiKey', summary: 'Revoke one of the caller’s API keys' })
  @ApiIdParam()
  @ApiProblems(400, 404)
  async deleteApiKey(
    @Param('id', uuidParam()) id: string,
    @CurrentActor() actor: Actor,
  ): Promise<void> {
    await this.keys.remove(actor.id, id);
  }
}
