import { ApiProperty } from '@nestjs/swagger';
import {
  PREVIEW_DESCRIPTION_MAX,
  PREVIEW_IMAGE_MAX,
  PREVIEW_TITLE_MAX,
} from '../../shared/social-preview';

const TITLE = `The card's title (at most ${PREVIEW_TITLE_MAX} characters, no control characters)`;
const DESCRIPTION = `The card's text (at most ${PREVIEW_DESCRIPTION_MAX} characters, no control characters)`;
const IMAGE = `The card's image: an absolute https URL (at most ${PREVIEW_IMAGE_MAX} characters); never fetched by this server`;

/**
 * A social preview as create, edit and import take it (src/shared/social-preview.ts): every part
 * optional; null or empty leaves it empty. Its check is the field's (checkPreview).
 */
export class SocialPreviewInputDto {
  @ApiProperty({
    type: 'string',
    required: false,
    nullable: true,
    maxLength: PREVIEW_TITLE_MAX,
    description: TITLE,
    example: 'Herbstaktion: 20 % auf alles',
  })
  title?: string | null;

  @ApiProperty({
    type: 'string',
    required: false,
    nullable: true,
    maxLength: PREVIEW_DESCRIPTION_MAX,
    description: DESCRIPTION,
  })
  description?: string | null;

  @ApiProperty({
    type: 'string',
    required: false,
    nullable: true,
    maxLength: PREVIEW_IMAGE_MAX,
    description: IMAGE,
    example: 'https://cdn.example.com/autumn.png',
  })
  image?: string | null;
}

/** A social preview as a short's answer shows it: every part, null when empty. */
export class SocialPreviewDto {
  @ApiProperty({ type: 'string', nullable: true, maxLength: PREVIEW_TITLE_MAX, description: TITLE })
  title: string | null;

  @ApiProperty({
    type: 'string',
    nullable: true,
    maxLength: PREVIEW_DESCRIPTION_MAX,
    description: DESCRIPTION,
  })
  description: string | null;

  @ApiProperty({ type: 'string', nullable: true, maxLength: PREVIEW_IMAGE_MAX, description: IMAGE })
  image: string | null;
}
