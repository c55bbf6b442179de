import { Controller, Get, Put } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import { CurrentActor, type Actor } from '../common/actor';
import { ApiProblems } from '../common/api-problems';
import { ApiSignedIn } from '../common/routes';
import { RequireUser } from '../common/auth.guard';
import { NoStore } from '../common/no-store';
import { ApiKeyService } from './apikey.service';

export class ApiKeyDto {
  @ApiProperty({
    description: 'The API key itself (use as Authorization: Bearer {id})',
    example: 'us_…',
  })
  id: string;
}

@ApiTags('account')
@ApiSignedIn()
@Controller('api/self/apikey')
export class ApiKeyController {
  constructor(private readonly keys: ApiKeyService) {}

  @Get()
  @RequireUser()
  @ApiOperation({ operationId: 'getApiKey', summary: 'Reveal the caller’s API key' })
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
    summary: 'Create or renew the API key (the old one stops working at once)',
  })
  @ApiOkResponse({ type: ApiKeyDto })
  @NoStore()
  async renewApiKey(@CurrentActor() actor: Actor): Promise<ApiKeyDto> {
    return { id: await this.keys.renew(actor.id) };
  }
}
