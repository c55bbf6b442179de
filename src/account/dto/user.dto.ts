import { ApiProperty } from '@nestjs/swagger';

export class UserDto {
  @ApiProperty({ format: 'uuid' })
  id: string;
  @ApiProperty()
  username: string;
  @ApiProperty({ type: 'string', nullable: true })
  email: string | null;
  @ApiProperty({
    type: 'string',
    nullable: true,
    description: 'Avatar URL from the login provider',
  })
  imageUrl: string | null;
  @ApiProperty({ description: 'Non-activated accounts keep only anonymous abilities' })
  activated: boolean;
  @ApiProperty({ type: 'string', format: 'date-time' })
  createdDate: string;
  @ApiProperty({ type: [String], example: ['ROLE_USER'] })
  authorities: string[];
}

export class LoggedInDto {
  @ApiProperty()
  loggedIn: boolean;
}

export class AuthProviderDto {
  @ApiProperty({ example: 'github' })
  name: string;
  @ApiProperty({
    example: '/api/auth/github',
    description: 'Path that starts the login (browser navigation)',
  })
  url: string;
}
