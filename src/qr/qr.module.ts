import { Module } from '@nestjs/common';
import { ShortsModule } from '../shorts/shorts.module';
import { QrController } from './qr.controller';
import { QrService } from './qr.service';

/** QR codes of short links (SVG, and PNGs rendered by a worker pool). */
@Module({
  imports: [ShortsModule],
  controllers: [QrController],
  providers: [QrService],
})
export class QrModule {}
