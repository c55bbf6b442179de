import { Module } from '@nestjs/common';
import { AccountModule } from '../account/account.module';
import { ShortsModule } from '../shorts/shorts.module';
import { FiguresController } from './figures.controller';
import { FiguresService } from './figures.service';

/** The start page's live figures (HOME_FIGURES=live). */
@Module({
  imports: [ShortsModule, AccountModule],
  controllers: [FiguresController],
  providers: [FiguresService],
})
export class FiguresModule {}
