import { ApiProperty } from '@nestjs/swagger';
import { IsIn, IsString, Length } from 'class-validator';
import { REPORT_REASONS, type ReportReason } from '../report.entity';

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
