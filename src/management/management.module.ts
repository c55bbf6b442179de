import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { TerminusModule } from '@nestjs/terminus';
import { HealthService } from './health.service';
import { ManagementController } from './management.controller';
import { ManagementService } from './management.service';

@Module({
  imports: [TerminusModule.forRoot({ logger: false }), DiscoveryModule],
  controllers: [ManagementController],
  providers: [HealthService, ManagementService],
})
export class ManagementModule {}
