import { ApiProperty } from '@nestjs/swagger';

/** What the target page says about itself; every field is null when unknown or when the fetch failed. */
export class ShortMetaDto {
  @ApiProperty({ type: 'string', nullable: true, description: 'og:title, else the <title>' })
  title: string | null;
  @ApiProperty({
    type: 'string',
    nullable: true,
    description: 'og:description, else <meta name="description">',
  })
  description: string | null;
  @ApiProperty({
    type: 'string',
    format: 'uri',
    nullable: true,
    description: 'og:image when it is an absolute https: URL',
  })
  image: string | null;
}
