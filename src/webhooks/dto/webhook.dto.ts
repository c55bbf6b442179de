import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsOptional,
  IsString,
  MaxLength,
} from 'class-validator';
import { TeamRefDto } from '../../access/team-ref.dto';
import { PageQueryDto } from '../../common/paging';
import { QueryText } from '../../common/query';
import { MAX_URL_LENGTH } from '../../shared/limits';
import { WEBHOOK_EVENTS, type WebhookEventType } from '../webhook-events';

export class WebhookDto {
  @ApiProperty({ format: 'uuid' })
  id: string;
  @ApiProperty({ example: 'https://hooks.example.com/url-shorter' })
  url: string;
  @ApiProperty({ type: 'string', isArray: true, enum: WEBHOOK_EVENTS })
  events: WebhookEventType[];
  @ApiProperty({ type: TeamRefDto, nullable: true, description: 'null: the caller’s own space' })
  team: TeamRefDto | null;
  @ApiProperty({ description: 'false: sends nothing (turned off, or failing for 3 days)' })
  enabled: boolean;
  @ApiProperty({
    type: 'string',
    nullable: true,
    description:
      'Why it was disabled by the server (deliveries failing for 3 days); null otherwise',
  })
  disabledReason: string | null;
  @ApiProperty({ type: 'string', format: 'date-time' })
  createdAt: string;
}

/** The create's answer: the webhook and its signing secret (shown in this answer only). */
export class CreatedWebhookDto extends WebhookDto {
  @ApiProperty({
    description: 'The signing secret (`whsec_` + base64), shown in this answer only',
    example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  })
  secret: string;
}

export class CreateWebhookDto {
  @ApiProperty({ maxLength: MAX_URL_LENGTH, example: 'https://hooks.example.com/url-shorter' })
  @IsString()
  @MaxLength(MAX_URL_LENGTH)
  url: string;

  @ApiProperty({ type: 'string', isArray: true, enum: WEBHOOK_EVENTS, minItems: 1 })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(WEBHOOK_EVENTS.length)
  @IsIn(WEBHOOK_EVENTS, { each: true })
  events: WebhookEventType[];

  @ApiPropertyOptional({
    description:
      'The team the webhook is for (an id of a team where the caller is owner or editor); absent: the caller’s own (a team key: its team)',
    maxLength: 36,
  })
  @IsOptional()
  @IsString()
  @MaxLength(36)
  team?: string;
}

export class UpdateWebhookDto {
  @ApiPropertyOptional({ maxLength: MAX_URL_LENGTH })
  @IsOptional()
  @IsString()
  @MaxLength(MAX_URL_LENGTH)
  url?: string;

  @ApiPropertyOptional({ type: 'string', isArray: true, enum: WEBHOOK_EVENTS, minItems: 1 })
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(WEBHOOK_EVENTS.length)
  @IsIn(WEBHOOK_EVENTS, { each: true })
  events?: WebhookEventType[];

  @ApiPropertyOptional({ description: 'true re-enables a webhook the server disabled' })
  @IsOptional()
  @IsBoolean()
  enabled?: boolean;
}

export class WebhookListQueryDto {
  @QueryText({
    description:
      'A team’s webhooks (its id; the caller must be a member) instead of the caller’s own',
  })
  @IsOptional()
  @MaxLength(36)
  team?: string;
}

export class DeliveriesQueryDto extends PageQueryDto({
  fields: ['createdAt'],
  description: 'By `createdAt` (default `createdAt,desc`: newest first)',
}) {}

export class WebhookDeliveryDto {
  @ApiProperty({ format: 'uuid' })
  id: string;
  @ApiProperty({ description: 'The event’s id, sent as `webhook-id` (kept by retries)' })
  eventId: string;
  @ApiProperty({ type: 'string', enum: WEBHOOK_EVENTS })
  type: string;
  @ApiProperty({ enum: ['pending', 'delivered', 'failed'] })
  status: string;
  @ApiProperty({ type: 'integer' })
  attempts: number;
  @ApiProperty({ type: 'integer', nullable: true })
  lastStatusCode: number | null;
  @ApiProperty({ type: 'string', nullable: true })
  lastError: string | null;
  @ApiProperty({ type: 'integer', nullable: true })
  durationMs: number | null;
  @ApiProperty({ type: 'string', format: 'date-time' })
  createdAt: string;
  @ApiProperty({ type: 'string', format: 'date-time', nullable: true })
  deliveredAt: string | null;
  @ApiProperty({
    type: 'string',
    format: 'date-time',
    nullable: true,
    description: 'When the next attempt is due (pending only)',
  })
  nextAttemptAt: string | null;
}
