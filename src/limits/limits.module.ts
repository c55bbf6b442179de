import { Global, Module } from '@nestjs/common';
import { RateLimitService } from './rate-limit.service';

/** Rate limits (CONTRACT "Limits"), available everywhere: creates, QR renders. */
@Global()
@Module({ providers: [RateLimitService], exports: [RateLimitService] })
export class LimitsModule {}
