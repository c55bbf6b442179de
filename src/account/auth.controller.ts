import { Controller, Get, Query, Req, Res, UseFilters, UseGuards } from '@nestjs/common';
import {
  ApiFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiQuery,
  ApiTags,
} from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { ApiProblems } from '../common/api-problems';
import { BadRequestError, NotFoundError } from '../common/errors';
import { NoStore } from '../common/no-store';
import { escapeHtml } from '../common/html';
import {
  LoginCallbackGuard,
  LoginFailure,
  LoginFailureFilter,
  type LoginRequest,
  LoginStartGuard,
} from './login.guard';
import { DevLoginQueryDto } from './dto/dev-login.dto';
import { LoginService } from './login.service';

const DEV_USERNAME = /^[A-Za-z0-9_.-]{1,64}$/;

/**
 * Login flows: browser navigations, answered with redirects. The provider logins run through their
 * passport strategies behind LoginStartGuard and LoginCallbackGuard (login.guard.ts); a login that
 * fails ends on `/login?error=…` (LoginFailureFilter).
 */
@ApiTags('account')
@Controller('api/auth')
@UseFilters(LoginFailureFilter)
export class AuthController {
  constructor(private readonly login: LoginService) {}

  @Get('dev')
  @ApiOperation({
    operationId: 'devLogin',
    summary:
      'Development login (AUTH_DEV_LOGIN=true only): log in as the local user dev:{username}',
  })
  @ApiFoundResponse({ description: 'Logged in; redirect to / or the redirect path' })
  @ApiOkResponse({
    description: 'The login form (no username given)',
    content: { 'text/html': { schema: { type: 'string' } } },
  })
  @ApiProblems(400, 404)
  @NoStore()
  async devLogin(
    @Query() { username, redirect }: DevLoginQueryDto,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    if (!this.login.isEnabled('dev'))
      throw new NotFoundError('Login provider not enabled', 'provider_not_enabled');
    if (username === undefined || username === '') {
      res
        .type('html')
        .send(
          `<!doctype html><html lang="de"><head><meta charset="utf-8"><title>Dev-Login</title></head><body>` +
            `<h1>Dev-Login</h1><p>Nur für die Entwicklung (AUTH_DEV_LOGIN).</p>` +
            `<form method="get" action="/api/auth/dev"><label>Benutzername <input name="username" required ` +
            `pattern="[A-Za-z0-9_.\\-]{1,64}" autofocus></label><input type="hidden" name="redirect" value="${escapeHtml(redirect ?? '')}">` +
            `<button type="submit">Anmelden</button></form></body></html>`,
        );
      return;
    }
    if (!DEV_USERNAME.test(username)) {
      throw new BadRequestError(
        'Username must be 1 to 64 characters of A-Z, a-z, 0-9, _, . and -',
        'username_invalid',
      );
    }
    await this.login.dev(
      req,
      res,
      {
        provider: 'dev',
        providerUserId: username.toLowerCase(),
        username,
        email: `${username.toLowerCase()}@dev.invalid`,
        imageUrl: null,
      },
      redirect ?? '',
    );
  }

  @Get(':provider')
  @ApiOperation({
    operationId: 'startLogin',
    summary: 'Start a login at the provider (github, discord, oidc)',
  })
  @ApiQuery({
    name: 'redirect',
    required: false,
    description: 'Same-origin path to go to after login',
  })
  @ApiParam({ name: 'provider', enum: ['github', 'discord', 'oidc'] })
  @ApiFoundResponse({ description: 'Redirect to the provider' })
  @ApiProblems(404)
  @UseGuards(LoginStartGuard)
  startLogin(): never {
    // LoginStartGuard's strategy has answered with the redirect to the provider; a strategy that
    // let the request through has not started a login.
    throw new LoginFailure('login_failed');
  }

  @Get(':provider/callback')
  @ApiOperation({
    operationId: 'loginCallback',
    summary: 'Provider callback: checks state, logs in, redirects',
  })
  @ApiParam({ name: 'provider', enum: ['github', 'discord', 'oidc'] })
  @ApiFoundResponse({
    description: 'Redirect to / (or the remembered path); /login?error=login_failed on failure',
  })
  @ApiProblems(404)
  @UseGuards(LoginCallbackGuard)
  async loginCallback(@Req() req: LoginRequest, @Res() res: Response): Promise<void> {
    await this.login.complete(req, res, req.loginProfile);
  }
}
