import { ApiPropertyOptional } from '@nestjs/swagger';
import {
  IsDateString,
  IsInt,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  MinLength,
  ValidateIf,
} from 'class-validator';
import { INT_MAX, IsStorableDate } from '../../common/db-limits';

/**
 * An edit (PATCH): every field optional; absent fields stay as they are, `null` clears expiry,
 * limit, name and password. `url` and `code` cannot be cleared.
 */
export class UpdateShortDto {
  @ApiPropertyOptional({ description: 'Absolute http(s) target URL', maxLength: 2048 })
  @ValidateIf((o: UpdateShortDto) => o.url !== undefined)
  @IsString()
  @MinLength(1)
  @MaxLength(5000)
  url?: string;

  @ApiPropertyOptional({ type: 'string', pattern: '^[A-Za-z0-9_-]{3,64}$' })
  @ValidateIf((o: UpdateShortDto) => o.code !== undefined)
  @IsString()
  @MaxLength(64)
  code?: string;

  @ApiPropertyOptional({ type: 'string', nullable: true, maxLength: 100 })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  name?: string | null;

  @ApiPropertyOptional({ type: 'string', format: 'date-time', nullable: true })
  @IsOptional()
  @IsDateString({ strict: true })
  @IsStorableDate()
  expireAt?: string | null;

  @ApiPropertyOptional({ type: 'integer', nullable: true, maximum: INT_MAX })
  @IsOptional()
  @IsInt()
  @Max(INT_MAX)
  maxUses?: number | null;

  @ApiPropertyOptional({
    type: 'string',
    nullable: true,
    maxLength: 128,
    description: 'A new password; null (or empty) removes the protection',
  })
  @IsOptional()
  @IsString()
  @MaxLength(128)
  password?: string | null;
}
