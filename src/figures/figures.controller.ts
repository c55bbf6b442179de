import { Controller, Get, Header } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import { ApiProblems } from '../common/api-problems';
import { type Figures, FiguresService } from './figures.service';

export class FiguresDto implements Figures {
  @ApiProperty({
    description: 'Shorts, rounded down to a leading digit (under 10: 0, no card)',
    example: 300,
  })
  links!: number;
  @ApiProperty({ description: 'Uses of all shorts, rounded down (under 10: 0)', example: 100 })
  visits!: number;
  @ApiProperty({ description: 'Accounts, rounded down (under 10: 0)', example: 40 })
  users!: number;
}

@ApiTags('web')
@Controller('api')
export class FiguresController {
  constructor(private readonly figures: FiguresService) {}

  @Get('figures')
  @Header('Cache-Control', 'public, max-age=60')
  @ApiOperation({
    operationId: 'getHomeFigures',
    summary:
      "The start page's live figures (HOME_FIGURES=live, the default): shorts, uses and accounts, rounded down, a count under 10 as 0 (its card is not shown); counted at most once a minute",
  })
  @ApiOkResponse({ type: FiguresDto })
  @ApiProblems(404)
  getHomeFigures(): Promise<FiguresDto> {
    return this.figures.figures();
  }
}
