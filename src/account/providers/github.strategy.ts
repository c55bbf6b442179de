import { type OnApplicationShutdown } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import type { Profile } from 'passport';
import { Strategy } from 'passport-github2';
import type { AppConfig } from '../../config/config';
import type { LoginProfile } from '../user.service';
import { callbackUrl, loginStrategies } from './login-strategy';

/**
 * GitHub through passport-github2, every endpoint overridable; `state` and PKCE kept in the session
 * (`oauth2:github`). Created only when GitHub is configured (see AccountModule).
 */
export class GithubStrategy
  extends PassportStrategy(Strategy, 'github')
  implements OnApplicationShutdown
{
  constructor(config: AppConfig) {
    const cfg = config.auth.github!;
    super({
      clientID: cfg.clientId,
      clientSecret: cfg.clientSecret,
      callbackURL: callbackUrl(config, 'github'),
      authorizationURL: cfg.authorizationUrl,
      tokenURL: cfg.tokenUrl,
      userProfileURL: cfg.userProfileUrl,
      userEmailURL: cfg.userEmailsUrl,
      scope: ['read:user', 'user:email'],
      // passport-oauth2 keeps a fresh state per login in the session for `state: true`;
      // passport-github2's typings only know a fixed state string.
      state: true as unknown as string,
      pkce: true,
      sessionKey: 'oauth2:github',
    });
    loginStrategies.started('github', this);
  }

  validate(
    _accessToken: string,
    _refreshToken: string,
    profile: Profile & { _json?: { avatar_url?: string } },
  ): LoginProfile {
    return {
      provider: 'github',
      providerUserId: String(profile.id),
      username: profile.username ?? String(profile.id),
      email: profile.emails?.[0]?.value ?? null,
      imageUrl: profile.photos?.[0]?.value ?? profile._json?.avatar_url ?? null,
    };
  }

  onApplicationShutdown(): void {
    loginStrategies.stopped('github', this);
  }
}
