import { Body, Controller, Delete, Get, Param, Patch, Post } from '@nestjs/common';
import {
  ApiBody,
  ApiCreatedResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
} from '@nestjs/swagger';
import { CurrentActor, type Actor } from '../common/actor';
import { ApiProblems } from '../common/api-problems';
import { NoStore } from '../common/no-store';
import { CurrentOrigin, type RequestOrigin } from '../common/request';
import { ApiIdParam, NoContent, PostAction, UserRoute, uuidParam } from '../common/routes';
import {
  CreateInviteDto,
  CreateTeamDto,
  TeamDto,
  TeamInviteDto,
  TeamMemberDto,
  UpdateMemberDto,
  UpdateTeamDto,
} from './dto/team.dto';
import { TeamsService } from './teams.service';

const uuid = uuidParam();
const ApiUserIdParam = () => ApiParam({ name: 'userId', format: 'uuid' });

/**
 * Teams, their members and invites (CONTRACT "Teams"). Sessions only: API keys are refused (403
 * `scope_missing`). A stranger gets 404 for a team's routes; owner-only routes answer members
 * without the owner role 403 `team_forbidden`.
 */
@ApiTags('teams')
@Controller('api')
export class TeamsController {
  constructor(private readonly teams: TeamsService) {}

  @Get('teams')
  @UserRoute()
  @ApiOperation({ operationId: 'listTeams', summary: 'The caller’s teams with his role, by name' })
  @ApiOkResponse({ type: [TeamDto] })
  @NoStore()
  listTeams(@CurrentActor() actor: Actor | null): Promise<TeamDto[]> {
    return this.teams.list(actor);
  }

  @Post('teams')
  @UserRoute()
  @ApiOperation({
    operationId: 'createTeam',
    summary:
      'Create a team; the caller becomes its owner (more than LIMIT_TEAMS teams: 409 quota_exceeded; LIMIT_TEAM_CREATE: 429)',
  })
  @ApiBody({ type: CreateTeamDto })
  @ApiCreatedResponse({ type: TeamDto })
  @ApiProblems(400, 409, 429)
  createTeam(
    @Body() dto: CreateTeamDto,
    @CurrentActor() actor: Actor | null,
    @CurrentOrigin() origin: RequestOrigin,
  ): Promise<TeamDto> {
    return this.teams.create(dto.name, actor, origin.client);
  }

  @Patch('teams/:id')
  @UserRoute()
  @ApiOperation({ operationId: 'updateTeam', summary: 'Rename a team (owners)' })
  @ApiIdParam()
  @ApiBody({ type: UpdateTeamDto })
  @ApiOkResponse({ type: TeamDto })
  @ApiProblems(400, 403, 404)
  updateTeam(
    @Param('id', uuid) id: string,
    @Body() dto: UpdateTeamDto,
    @CurrentActor() actor: Actor | null,
  ): Promise<TeamDto> {
    return this.teams.rename(id, dto.name, actor);
  }

  @Delete('teams/:id')
  @NoContent()
  @UserRoute()
  @ApiOperation({
    operationId: 'deleteTeam',
    summary:
      'Delete a team with its members, invites and keys (owners; while shorts or domains belong to it: 409 team_not_empty)',
  })
  @ApiIdParam()
  @ApiProblems(400, 403, 404, 409)
  async deleteTeam(
    @Param('id', uuid) id: string,
    @CurrentActor() actor: Actor | null,
  ): Promise<void> {
    await this.teams.delete(id, actor);
  }

  @Get('teams/:id/members')
  @UserRoute()
  @ApiOperation({ operationId: 'listTeamMembers', summary: 'A team’s members (members)' })
  @ApiIdParam()
  @ApiOkResponse({ type: [TeamMemberDto] })
  @ApiProblems(400, 404)
  @NoStore()
  listTeamMembers(
    @Param('id', uuid) id: string,
    @CurrentActor() actor: Actor | null,
  ): Promise<TeamMemberDto[]> {
    return this.teams.members(id, actor);
  }

  @Patch('teams/:id/members/:userId')
  @UserRoute()
  @ApiOperation({
    operationId: 'updateTeamMember',
    summary: 'Change a member’s role (owners; the last owner: 409 team_last_owner)',
  })
  @ApiIdParam()
  @ApiUserIdParam()
  @ApiBody({ type: UpdateMemberDto })
  @ApiOkResponse({ type: TeamMemberDto })
  @ApiProblems(400, 403, 404, 409)
  updateTeamMember(
    @Param('id', uuid) id: string,
    @Param('userId', uuid) userId: string,
    @Body() dto: UpdateMemberDto,
    @CurrentActor() actor: Actor | null,
  ): Promise<TeamMemberDto> {
    return this.teams.setRole(id, userId, dto.role, actor);
  }

  @Delete('teams/:id/members/:userId')
  @NoContent()
  @UserRoute()
  @ApiOperation({
    operationId: 'removeTeamMember',
    summary:
      'Remove a member (owners; any member may remove himself: leave; the last owner: 409 team_last_owner). The team’s shorts stay the team’s',
  })
  @ApiIdParam()
  @ApiUserIdParam()
  @ApiProblems(400, 403, 404, 409)
  async removeTeamMember(
    @Param('id', uuid) id: string,
    @Param('userId', uuid) userId: string,
    @CurrentActor() actor: Actor | null,
  ): Promise<void> {
    await this.teams.removeMember(id, userId, actor);
  }

  @Post('teams/:id/invites')
  @UserRoute()
  @ApiOperation({
    operationId: 'createTeamInvite',
    summary:
      'An invite link for a role (owners): valid 7 days, used once; the token is shown in this answer only (more than 50 open invites: 409 quota_exceeded)',
  })
  @ApiIdParam()
  @ApiBody({ type: CreateInviteDto })
  @ApiCreatedResponse({ type: TeamInviteDto })
  @ApiProblems(400, 403, 404, 409)
  @NoStore()
  createTeamInvite(
    @Param('id', uuid) id: string,
    @Body() dto: CreateInviteDto,
    @CurrentActor() actor: Actor | null,
  ): Promise<TeamInviteDto> {
    return this.teams.invite(id, dto.role, actor);
  }

  @PostAction('invites/:token')
  @UserRoute()
  @ApiOperation({
    operationId: 'acceptTeamInvite',
    summary:
      'Join the invite’s team with its role and answer the team (unknown, used or expired: 404 invite_invalid; a member already keeps his role and the invite stays unused; team or user at its cap: 409 quota_exceeded)',
  })
  @ApiParam({ name: 'token', example: 'inv_3fJ…' })
  @ApiOkResponse({ type: TeamDto })
  @ApiProblems(404, 409)
  acceptTeamInvite(
    @Param('token') token: string,
    @CurrentActor() actor: Actor | null,
  ): Promise<TeamDto> {
    return this.teams.join(token, actor);
  }
}
