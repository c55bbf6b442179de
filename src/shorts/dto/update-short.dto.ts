import { PartialType } from '@nestjs/swagger';
import { ShortFieldsDto } from './short-fields.dto';

/**
 * An edit (PATCH): every field of the table optional; absent fields stay as they are, `null`
 * clears the nullable ones (expiry, limit, name, password); `url` and `code` cannot be cleared.
 */
export class UpdateShortDto extends PartialType(ShortFieldsDto) {}
