import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, Matches, ValidateBy } from 'class-validator';
import { QueryText } from '../../common/query';
import { asDetail } from '../../common/validation';
import { MANAGEMENT_LEVELS, type ManagementLevel } from '../../logging/log.service';

export class HealthStatusDto {
  @ApiProperty({ enum: ['UP', 'DOWN'] })
  status: 'UP' | 'DOWN';
}

export class HealthReportDto extends HealthStatusDto {
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: {
      type: 'object',
      properties: { status: { type: 'string' }, details: { type: 'object' } },
    },
    description: 'Admins only: db, disk, memory',
  })
  components?: Record<string, unknown>;
  @ApiPropertyOptional({ type: [String], example: ['liveness', 'readiness'] })
  groups?: string[];
}

export class RouteMappingDto {
  @ApiProperty({ example: 'GET' })
  method: string;
  @ApiProperty({ example: '/api/code/:code' })
  path: string;
  @ApiProperty({ example: 'CodeController.getOrFollowShort' })
  handler: string;
}

export class LogEntryDto {
  @ApiProperty({ example: '2026-01-01T12:00:00.000Z' })
  time: string;
  @ApiProperty({ example: 'info' })
  level: string;
  @ApiProperty({ example: 'FollowService' })
  logger: string;
  @ApiProperty()
  message: string;
  @ApiPropertyOptional()
  requestId?: string;
}

export class LoggerLevelDto {
  @ApiProperty({ enum: MANAGEMENT_LEVELS, nullable: true, type: String })
  configuredLevel: ManagementLevel | null;
  @ApiProperty({ enum: MANAGEMENT_LEVELS })
  effectiveLevel: ManagementLevel;
}

export class LoggersDto {
  @ApiProperty({ enum: MANAGEMENT_LEVELS, isArray: true })
  levels: string[];
  @ApiProperty({
    type: 'object',
    additionalProperties: { $ref: '#/components/schemas/LoggerLevelDto' },
  })
  loggers: Record<string, LoggerLevelDto>;
  @ApiProperty({ type: 'object', additionalProperties: true })
  groups: Record<string, unknown>;
}

export class SetLoggerLevelDto {
  @ApiProperty({
    enum: MANAGEMENT_LEVELS,
    nullable: true,
    type: String,
    description: 'null resets to the default',
  })
  @IsOptional()
  @IsString()
  configuredLevel: string | null;
}

/** `GET /management/logs?startDate`: only lines at or after it (an empty one: all). */
export class LogsQueryDto {
  @QueryText({ description: 'ISO date-time: only lines at or after it' })
  @ValidateBy(
    {
      name: 'dateTime',
      validator: {
        validate: (v: unknown) =>
          v === undefined || v === '' || !Number.isNaN(new Date(v as string).getTime()),
      },
    },
    { message: 'startDate must be an ISO date-time', context: asDetail('start_date_invalid') },
  )
  startDate?: string;
}

/** The `{logger}` of the loggers calls: letters, digits, dots, `_` and `-` (at most 100). */
export class LoggerParamDto {
  @ApiProperty({ example: 'ROOT' })
  @Matches(/^[A-Za-z0-9._-]{1,100}$/, {
    message: 'Logger names are letters, digits, dots, _ and -',
    context: asDetail('logger_name_invalid'),
  })
  logger: string;
}
