import { Controller, Get } from '@nestjs/common';
import { ApiHeader, ApiOkResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { FrontendTogglesDto } from './flags.dto';
import { FlagsService } from './flags.service';
import { NoStore } from '../common/no-store';

/** Embedded Unleash-compatible frontend API, so unleash-proxy-client works without an Unleash server. */
@ApiTags('flags')
@Controller('api/frontend')
export class FlagsController {
  constructor(private readonly flags: FlagsService) {}

  @Get()
  @NoStore()
  @ApiOperation({
    operationId: 'getFrontendFlags',
    summary: 'Enabled feature flags in the Unleash frontend-API format',
  })
  @ApiHeader({
    name: 'Authorization',
    required: false,
    description: 'Client key (accepted, not checked)',
  })
  @ApiQuery({ name: 'appName', required: false, description: 'Unleash context (ignored)' })
  @ApiOkResponse({ type: FrontendTogglesDto })
  getFrontendFlags(): FrontendTogglesDto {
    return { toggles: this.flags.frontendToggles() };
  }
}
