import { ApiProperty } from '@nestjs/swagger';
import { acceptAsIs } from '../../common/validation';
import { passesShortFieldChecks, ShortFieldsDto } from './short-fields.dto';

/**
 * Create payload: the field table's fields (short-fields.dto.ts). Anonymous callers may send only
 * the fields set by `anonymous` (url and password); the others need a logged-in caller (null
 * counts as absent).
 */
export class CreateShortDto extends ShortFieldsDto {}

// A create of plain text fields (the usual one) skips class-transformer and class-validator.
acceptAsIs(CreateShortDto, passesShortFieldChecks);

export class CreatedShortDto {
  @ApiProperty({ example: 'aB3dE5f' })
  code: string;

  @ApiProperty({
    description: 'The link to share ({BASE_URL}/s/{code}, or {scheme}://{domain}/{code})',
    example: 'https://kurz.example/s/aB3dE5f',
  })
  shortUrl: string;
}
