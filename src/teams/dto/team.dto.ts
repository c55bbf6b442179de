import { ApiProperty } from '@nestjs/swagger';
import { IsIn, IsString, MaxLength } from 'class-validator';
import { TEAM_NAME_MAX, TEAM_ROLES, type TeamRole } from '../../shared/teams';

/** A team as its members see it, with the caller's role (CONTRACT "Teams": `Team`). */
export class TeamDto {
  @ApiProperty({ format: 'uuid' })
  id: string;
  @ApiProperty({ minLength: 1, maxLength: TEAM_NAME_MAX, example: 'Marketing' })
  name: string;
  @ApiProperty({ type: 'string', format: 'date-time' })
  createdAt: string;
  @ApiProperty({ enum: TEAM_ROLES, description: 'The caller’s role in this team' })
  role: TeamRole;
}

/** A member's account, as the other members see it. */
export class TeamUserDto {
  @ApiProperty({ format: 'uuid' })
  id: string;
  @ApiProperty()
  username: string;
  @ApiProperty({ type: 'string', nullable: true })
  imageUrl: string | null;
}

export class TeamMemberDto {
  @ApiProperty({ type: TeamUserDto })
  user: TeamUserDto;
  @ApiProperty({ enum: TEAM_ROLES })
  role: TeamRole;
  @ApiProperty({ type: 'string', format: 'date-time' })
  joinedAt: string;
}

/** A new invite link: the token is shown in this answer only (stored as its SHA-256). */
export class TeamInviteDto {
  @ApiProperty({ example: 'inv_3fJ…', description: 'Shown once; used once' })
  token: string;
  @ApiProperty({ example: 'https://short.example/invite/inv_3fJ…' })
  url: string;
  @ApiProperty({ type: 'string', format: 'date-time' })
  expiresAt: string;
}

/** A team's name: 1–64 characters after trimming (checked by the service). */
export class TeamNameDto {
  @ApiProperty({ minLength: 1, maxLength: TEAM_NAME_MAX, example: 'Marketing' })
  @IsString()
  @MaxLength(TEAM_NAME_MAX * 4)
  name: string;
}

export class CreateTeamDto extends TeamNameDto {}

export class UpdateTeamDto extends TeamNameDto {}

export class TeamRoleDto {
  @ApiProperty({ enum: TEAM_ROLES })
  @IsIn(TEAM_ROLES)
  role: TeamRole;
}

export class UpdateMemberDto extends TeamRoleDto {}

export class CreateInviteDto extends TeamRoleDto {}
