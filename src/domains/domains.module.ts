import { TeamEntity } from '../teams/team.entity';
import { AccessModule } from '../access/access.module';
import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { BlacklistModule } from '../blacklist/blacklist.module';
import { DomainCheckJob } from './domain-check.job';
import { DomainEntity } from './domain.entity';
import { DomainRegistry } from './domain-registry';
import { DomainService } from './domain.service';
import { DomainsController } from './domains.controller';

/**
 * Own domains (the `domains` table): added by users (verified by a DNS TXT record) and admins
 * (shared), re-checked daily, held in memory by host for the follow path (DomainRegistry).
 */
@Module({
  imports: [TypeOrmModule.forFeature([DomainEntity, TeamEntity]), BlacklistModule, AccessModule],
  controllers: [DomainsController],
  providers: [DomainService, DomainRegistry, DomainCheckJob],
  exports: [DomainService, DomainRegistry],
})
export class DomainsModule {}
