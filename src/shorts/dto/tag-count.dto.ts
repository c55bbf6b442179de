import { ApiProperty } from '@nestjs/swagger';
import { IsOptional, MaxLength } from 'class-validator';
import { QueryText } from '../../common/query';

/** A tag of a space's shorts and how many of them carry it (`GET /api/tags`). */
export class TagCountDto {
  @ApiProperty({
    description:
      'The tag as one of the shorts spells it (tags that differ only in case are one tag)',
    example: 'Herbst',
  })
  tag: string;

  @ApiProperty({ type: 'integer', minimum: 1, description: 'How many shorts carry it' })
  count: number;
}

/** `GET /api/tags`: the caller's own space, or a team's. */
export class TagCountsQueryDto {
  @QueryText({
    description:
      'A team’s tags (its id; the caller must be a member) instead of the caller’s own space',
  })
  @IsOptional()
  @MaxLength(36)
  team?: string;
}
