import { Global, Module } from '@nestjs/common';
import { LogService } from './log.service';

/** The structured logger (one per app), available everywhere. */
@Global()
@Module({ providers: [LogService], exports: [LogService] })
export class LoggingModule {}
