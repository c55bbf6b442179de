import { ApiProperty } from '@nestjs/swagger';

/** The team a short, a domain or a key belongs to (`Short.team`, `Domain.team`). */
export class TeamRefDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ maxLength: 64, example: 'Marketing' })
  name: string;
}
