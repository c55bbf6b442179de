import { ApiProperty } from '@nestjs/swagger';

/**
 * The owner of a short or of an own domain, as their answers show it. Named `ShortOwnerDto` (its
 * OpenAPI schema name); here, below shorts/ and domains/, so that both can import it.
 */
export class ShortOwnerDto {
  @ApiProperty({ format: 'uuid' })
  id: string;
  @ApiProperty()
  username: string;
}
