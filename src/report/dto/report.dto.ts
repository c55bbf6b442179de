import { ApiProperty } from '@nestjs/swagger';
import { IsIn, IsString, Length } from 'class-validator';
import {
  REPORT_REASONS,
  REPORT_STATES,
  type ReportReason,
  type ReportState,
} from '../report.entity';

export class CreateReportDto {
  @ApiProperty({ enum: REPORT_REASONS, example: 'SPAM' })
  @IsIn(REPORT_REASONS as unknown as string[], {
    message: `must be one of ${REPORT_REASONS.join(', ')}`,
  })
  reason: ReportReason;

  @ApiProperty({ minLength: 1, maxLength: 2000, example: 'Leads to a phishing page' })
  @IsString()
  @Length(1, 2000)
  description: string;
}

export class ReportCreatedDto {
  @ApiProperty({ example: true })
  success: boolean;
}

/** A report as the short's owner (and admins) see it: never who reported it. */
export class OwnerReportDto {
  @ApiProperty({ enum: REPORT_REASONS })
  reason: ReportReason;
  @ApiProperty()
  description: string;
  @ApiProperty({ type: 'string', format: 'date-time' })
  createdAt: string;
  @ApiProperty({ enum: REPORT_STATES })
  state: ReportState;
}
