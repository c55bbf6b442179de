import { ApiProperty } from '@nestjs/swagger';

export class StatsTotalsDto {
  @ApiProperty({ description: 'Follows redirected to the target (bots excluded)' })
  visits: number;
  @ApiProperty({ description: 'Unique visitors (per day; summed over the days of a bucket)' })
  visitors: number;
  @ApiProperty({ description: 'Follows by bots, link previews, empty user agents and HEAD' })
  bots: number;
}

export class StatsBucketDto extends StatsTotalsDto {
  @ApiProperty({ type: 'string', format: 'date-time', description: 'Start of the bucket' })
  start: string;
}

export class StatsEntryDto {
  @ApiProperty({ description: 'The value, or `other` for the rest' })
  name: string;
  @ApiProperty()
  count: number;
}

export class StatisticsDto {
  @ApiProperty({ type: 'string', format: 'date-time', description: 'Start of the first bucket' })
  from: string;
  @ApiProperty({ type: 'string', format: 'date-time' })
  to: string;
  @ApiProperty({ enum: ['hour', 'day', 'month'] })
  granularity: 'hour' | 'day' | 'month';
  @ApiProperty({ description: 'IANA time zone of the buckets, in its canonical spelling' })
  tz: string;
  @ApiProperty({ type: StatsTotalsDto })
  total: StatsTotalsDto;
  @ApiProperty({ type: [StatsBucketDto], description: 'Every bucket, empty ones with zeros' })
  series: StatsBucketDto[];
  @ApiProperty({ type: [StatsEntryDto], description: 'Referrer hosts (`direct` without one)' })
  referrers: StatsEntryDto[];
  @ApiProperty({ type: [StatsEntryDto], description: 'ISO 3166 alpha-2 codes or `unknown`' })
  countries: StatsEntryDto[];
  @ApiProperty({ type: [StatsEntryDto] })
  browsers: StatsEntryDto[];
  @ApiProperty({ type: [StatsEntryDto] })
  os: StatsEntryDto[];
  @ApiProperty({ type: [StatsEntryDto], description: '`desktop`, `mobile`, `tablet`, `other`' })
  devices: StatsEntryDto[];
  @ApiProperty({
    type: [StatsEntryDto],
    description:
      'Where the visits went: `default` (the short’s url) or the number of the redirect rule that matched (`1` is the first)',
  })
  targets: StatsEntryDto[];
}
