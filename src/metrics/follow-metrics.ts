import { Injectable, type OnModuleInit } from '@nestjs/common';
import { CodeService } from '../code/code.service';
import { MetricsService } from './metrics.service';

/**
 * Counts follows by outcome. The follow hot path bypasses Express (code/follow.ts), so the count
 * is taken where both paths meet: CodeService.follow's observer (one counter increment).
 */
@Injectable()
export class FollowMetrics implements OnModuleInit {
  constructor(
    private readonly codes: CodeService,
    private readonly metrics: MetricsService,
  ) {}

  onModuleInit(): void {
    const follows = this.metrics.follows;
    this.codes.followObserver = (kind) => follows.inc({ outcome: kind });
  }
}
