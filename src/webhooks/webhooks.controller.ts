import { Body, Controller, Delete, Get, Param, Patch, Post, Query } from '@nestjs/common';
import {
  ApiBody,
  ApiCreatedResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
} from '@nestjs/swagger';
import { Scope } from '../common/auth.guard';
import { CurrentActor, type Actor } from '../common/actor';
import { ApiProblems } from '../common/api-problems';
import { NoStore } from '../common/no-store';
import { ApiPageResponse, type Page, pageRequest } from '../common/paging';
import { ApiIdParam, NoContent, PostAction, UserRoute, uuidParam } from '../common/routes';
import {
  CreatedWebhookDto,
  CreateWebhookDto,
  DeliveriesQueryDto,
  UpdateWebhookDto,
  WebhookDeliveryDto,
  WebhookDto,
  WebhookListQueryDto,
} from './dto/webhook.dto';
import { WebhookDeliveryJob } from './webhook-delivery.job';
import { deliveryDto, WebhookService } from './webhook.service';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { WebhookDeliveryEntity } from './webhook.entity';

const uuid = uuidParam();

/** Webhooks (CONTRACT "Webhooks"): the Standard Webhooks format, an outbox, a delivery log. */
@ApiTags('webhooks')
@Controller('api/webhooks')
export class WebhooksController {
  constructor(
    private readonly webhooks: WebhookService,
    private readonly job: WebhookDeliveryJob,
    @InjectRepository(WebhookDeliveryEntity)
    private readonly deliveries: Repository<WebhookDeliveryEntity>,
  ) {}

  @Get()
  @UserRoute()
  @Scope('webhooks:write')
  @ApiOperation({
    operationId: 'listWebhooks',
    summary: 'The caller’s own webhooks and his teams’, or one team’s (`?team=`, members)',
  })
  @ApiOkResponse({ type: [WebhookDto] })
  @ApiProblems(400, 403)
  @NoStore()
  listWebhooks(
    @Query() query: WebhookListQueryDto,
    @CurrentActor() actor: Actor | null,
  ): Promise<WebhookDto[]> {
    return this.webhooks.list(actor, query.team);
  }

  @Post()
  @UserRoute()
  @Scope('webhooks:write')
  @ApiOperation({
    operationId: 'createWebhook',
    summary:
      'Add a webhook (its secret is in this answer only; at most 10 per user or team: 409 quota_exceeded; a URL of a loopback, private or link-local address: 400 webhook_url_invalid)',
  })
  @ApiBody({ type: CreateWebhookDto })
  @ApiCreatedResponse({ type: CreatedWebhookDto })
  @ApiProblems(400, 403, 409, 413, 415, 429)
  createWebhook(
    @Body() dto: CreateWebhookDto,
    @CurrentActor() actor: Actor | null,
  ): Promise<CreatedWebhookDto> {
    return this.webhooks.create(dto, actor);
  }

  @Patch(':id')
  @UserRoute()
  @Scope('webhooks:write')
  @ApiOperation({
    operationId: 'updateWebhook',
    summary: 'Change a webhook’s URL, events or enabled (true re-enables one the server disabled)',
  })
  @ApiIdParam()
  @ApiBody({ type: UpdateWebhookDto })
  @ApiOkResponse({ type: WebhookDto })
  @ApiProblems(400, 403, 404, 413, 415)
  updateWebhook(
    @Param('id', uuid) id: string,
    @Body() dto: UpdateWebhookDto,
    @CurrentActor() actor: Actor | null,
  ): Promise<WebhookDto> {
    return this.webhooks.update(id, dto, actor);
  }

  @Delete(':id')
  @NoContent()
  @UserRoute()
  @Scope('webhooks:write')
  @ApiOperation({ operationId: 'deleteWebhook', summary: 'Delete a webhook and its deliveries' })
  @ApiIdParam()
  @ApiProblems(400, 403, 404)
  async deleteWebhook(
    @Param('id', uuid) id: string,
    @CurrentActor() actor: Actor | null,
  ): Promise<void> {
    await this.webhooks.delete(id, actor);
  }

  @PostAction(':id/test')
  @UserRoute()
  @Scope('webhooks:write')
  @ApiOperation({
    operationId: 'testWebhook',
    summary: 'Send a `webhook.test` event now; answers its delivery after the attempt',
  })
  @ApiIdParam()
  @ApiOkResponse({ type: WebhookDeliveryDto })
  @ApiProblems(400, 403, 404)
  async testWebhook(
    @Param('id', uuid) id: string,
    @CurrentActor() actor: Actor | null,
  ): Promise<WebhookDeliveryDto> {
    const w = await this.webhooks.managed(id, actor, 'write');
    const [row] = await this.webhooks.emit(
      'webhook.test',
      { ownerId: w.ownerId, teamId: w.teamId },
      { webhook: { id: w.id, url: w.url }, message: 'A test event of URL-Shorter' },
      { only: w, wake: false },
    );
    await this.job.retryNow(row.id);
    return this.delivery(row.id);
  }

  @Get(':id/deliveries')
  @UserRoute()
  @Scope('webhooks:write')
  @ApiOperation({
    operationId: 'listWebhookDeliveries',
    summary: 'The webhook’s deliveries of the last 7 days, newest first',
  })
  @ApiIdParam()
  @ApiPageResponse(WebhookDeliveryDto)
  @ApiProblems(400, 403, 404)
  @NoStore()
  listWebhookDeliveries(
    @Param('id', uuid) id: string,
    @Query() query: DeliveriesQueryDto,
    @CurrentActor() actor: Actor | null,
  ): Promise<Page<WebhookDeliveryDto>> {
    const page = pageRequest(query, {
      sortable: { createdAt: 'created_at' },
      defaultSort: ['createdAt,desc'],
    });
    return this.webhooks.deliveriesOf(id, actor, page);
  }

  @PostAction(':id/deliveries/:deliveryId/retry')
  @UserRoute()
  @Scope('webhooks:write')
  @ApiOperation({
    operationId: 'retryWebhookDelivery',
    summary:
      'Send a delivery again now (the same `webhook-id`; its attempts count it); answers it after the attempt',
  })
  @ApiIdParam()
  @ApiParam({ name: 'deliveryId', format: 'uuid' })
  @ApiOkResponse({ type: WebhookDeliveryDto })
  @ApiProblems(400, 403, 404)
  async retryWebhookDelivery(
    @Param('id', uuid) id: string,
    @Param('deliveryId', uuid) deliveryId: string,
    @CurrentActor() actor: Actor | null,
  ): Promise<WebhookDeliveryDto> {
    const { delivery } = await this.webhooks.managedDelivery(id, deliveryId, actor);
    await this.job.retryNow(delivery.id);
    return this.delivery(delivery.id);
  }

  private async delivery(id: string): Promise<WebhookDeliveryDto> {
    const d = await this.deliveries.findOneOrFail({ where: { id } });
    return deliveryDto(d);
  }
}
