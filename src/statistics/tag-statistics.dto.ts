import { ApiProperty } from '@nestjs/swagger';
import { IsOptional, MaxLength, ValidateBy } from 'class-validator';
import { QueryText } from '../common/query';
import { asDetail } from '../common/validation';
import { cleanTag, isValidTag, TAG_MAX_LENGTH } from '../shared/tags';
import { StatisticsDto } from './statistics.dto';
import { StatisticsQueryDto } from './statistics-query.dto';

/** `GET /api/statistics` and `statistics.csv`: a short's statistics query, a tag and a team. */
export class TagStatisticsQueryDto extends StatisticsQueryDto {
  @QueryText({
    required: true,
    description: `The tag (compared case-insensitively; 1–${TAG_MAX_LENGTH} letters, digits, spaces, -, _ and .)`,
    example: 'Herbst',
  })
  @ValidateBy(
    {
      name: 'tag',
      validator: { validate: (v: unknown) => typeof v === 'string' && isValidTag(cleanTag(v)) },
    },
    {
      message: `tag must be 1 to ${TAG_MAX_LENGTH} letters, digits, spaces, -, _ and .`,
      context: asDetail('tag_invalid'),
    },
  )
  tag: string;

  @QueryText({
    description:
      'A team’s shorts (its id; the caller must be a member) instead of the caller’s own space',
  })
  @IsOptional()
  @MaxLength(36)
  team?: string;
}

/** A short of a tag and its visits in the range. */
export class TagShortVisitsDto {
  @ApiProperty({ format: 'uuid' })
  id: string;
  @ApiProperty()
  code: string;
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'The own domain the short is on; null: this service’s host',
  })
  domain: string | null;
  @ApiProperty({ description: 'Visits in the range' })
  visits: number;
}

/** The statistics of a tag: a short's statistics, summed over the shorts that carry it. */
export class TagStatisticsDto extends StatisticsDto {
  @ApiProperty({
    type: [TagShortVisitsDto],
    description:
      'The (at most) 10 shorts with the most visits in the range, most first; fewer with visits are followed by others of the tag with 0',
  })
  shorts: TagShortVisitsDto[];
}
