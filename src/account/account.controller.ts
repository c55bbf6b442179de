import { Controller, Get, HttpCode, Post, Req, Res } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiCookieAuth,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { CurrentActor, type Actor } from '../common/actor';
import { ApiProblems } from '../common/api-problems';
import { UnauthorizedError } from '../common/errors';
import { NoStore } from '../common/no-store';
import { SESSION_COOKIE } from '../common/session-cookie';
import { AuthProviderDto, LoggedInDto, UserDto } from './dto/user.dto';
import { LoginService } from './login.service';
import { UserService } from './user.service';

@ApiTags('account')
@Controller('api')
export class AccountController {
  constructor(
    private readonly users: UserService,
    private readonly login: LoginService,
  ) {}

  @Get('account')
  @ApiOperation({
    operationId: 'getAccount',
    summary: 'The logged-in user (also when not activated)',
  })
  @ApiCookieAuth('session')
  @ApiBearerAuth('apiKey')
  @ApiOkResponse({ type: UserDto })
  @ApiProblems(401)
  @NoStore()
  async getAccount(@CurrentActor() actor: Actor | null): Promise<UserDto> {
    if (!actor) throw new UnauthorizedError();
    const user = await this.users.findById(actor.id);
    if (!user) throw new UnauthorizedError();
    return this.users.toDto(user);
  }

  @Get('logged-in')
  @ApiOperation({
    operationId: 'getLoggedIn',
    summary: 'Whether the caller is logged in (always 200)',
  })
  @ApiOkResponse({ type: LoggedInDto })
  @NoStore()
  getLoggedIn(@CurrentActor() actor: Actor | null): LoggedInDto {
    return { loggedIn: !!actor };
  }

  @Get('auth-providers')
  @ApiOperation({ operationId: 'getAuthProviders', summary: 'Configured login providers' })
  @ApiOkResponse({ type: [AuthProviderDto] })
  getAuthProviders(): AuthProviderDto[] {
    return this.login.providers();
  }

  @Post('logout')
  @HttpCode(204)
  @ApiOperation({ operationId: 'logout', summary: 'End the session (bodiless; same-origin only)' })
  @ApiCookieAuth('session')
  @ApiNoContentResponse({ description: 'Session destroyed, cookie cleared' })
  @ApiProblems(403)
  async logout(@Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<void> {
    await this.login.logout(req);
    const secure = this.login.secureCookies;
    res.clearCookie(SESSION_COOKIE, { path: '/', httpOnly: true, sameSite: 'lax', secure });
  }
}
