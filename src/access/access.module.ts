import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { TeamEntity, TeamMemberEntity } from '../teams/team.entity';
import { AccessPolicy } from './access-policy';

/**
 * The access policy (AccessPolicy): who may read or write what users and teams own. Registers the
 * team entities, which the shorts' and domains' entities refer to.
 */
@Module({
  imports: [TypeOrmModule.forFeature([TeamEntity, TeamMemberEntity])],
  providers: [AccessPolicy],
  exports: [AccessPolicy],
})
export class AccessModule {}
