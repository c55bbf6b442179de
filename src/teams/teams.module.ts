import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AccessModule } from '../access/access.module';
import { TeamEntity, TeamInviteEntity, TeamMemberEntity } from './team.entity';
import { TeamsController } from './teams.controller';
import { TeamsService } from './teams.service';

/** Teams, their members and invites (CONTRACT "Teams"). */
@Module({
  imports: [
    TypeOrmModule.forFeature([TeamEntity, TeamMemberEntity, TeamInviteEntity]),
    AccessModule,
  ],
  controllers: [TeamsController],
  providers: [TeamsService],
  exports: [TeamsService],
})
export class TeamsModule {}
