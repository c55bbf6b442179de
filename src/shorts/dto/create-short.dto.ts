import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  IsDateString,
  IsInt,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  MinLength,
} from 'class-validator';
import { INT_MAX, IsStorableDate } from '../../common/db-limits';

/**
 * Create payload. Anonymous callers may send only `url` and `password`; the other
 * fields need a logged-in caller (null counts as absent).
 */
export class CreateShortDto {
  @ApiProperty({
    description: 'Absolute http(s) target URL',
    maxLength: 2048,
    example: 'https://example.com/page',
  })
  @IsString()
  @MinLength(1)
  @MaxLength(5000)
  url: string;

  @ApiPropertyOptional({
    type: 'string',
    nullable: true,
    maxLength: 128,
    description: 'Protects the short',
  })
  @IsOptional()
  @IsString()
  @MaxLength(128)
  password?: string | null;

  @ApiPropertyOptional({
    type: 'string',
    nullable: true,
    pattern: '^[A-Za-z0-9_-]{3,64}$',
    description: 'Custom code (logged-in only)',
  })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  code?: string | null;

  @ApiPropertyOptional({
    type: 'string',
    nullable: true,
    maxLength: 100,
    description: 'Name (logged-in only)',
  })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  name?: string | null;

  @ApiPropertyOptional({
    type: 'string',
    format: 'date-time',
    nullable: true,
    description: 'Expiry (logged-in only; anonymous shorts expire after 24 h)',
  })
  @IsOptional()
  @IsDateString({ strict: true })
  @IsStorableDate()
  expireAt?: string | null;

  @ApiPropertyOptional({
    type: 'integer',
    nullable: true,
    maximum: INT_MAX,
    description: 'Maximum uses (logged-in only)',
  })
  @IsOptional()
  @IsInt()
  @Max(INT_MAX)
  maxUses?: number | null;
}

export class CreatedShortDto {
  @ApiProperty({ example: 'aB3dE5f' })
  code: string;
}
