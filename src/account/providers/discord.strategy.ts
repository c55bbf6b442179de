import { type OnApplicationShutdown } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { Strategy } from 'passport-discord';
import type { AppConfig } from '../../config/config';
import type { LoginProfile } from '../user.service';
import { callbackUrl, loginStrategies } from './login-strategy';

interface DiscordUser {
  id: string;
  username: string;
  email?: string | null;
  avatar?: string | null;
}

interface OAuth2Client {
  get(url: string, token: string, cb: (err: unknown, body?: string | Buffer) => void): void;
}

/**
 * Discord through passport-discord, with an overridable profile URL (the package hard-codes
 * discord.com); `state` kept in the session (`oauth2:discord`). Created only when Discord is
 * configured (see AccountModule).
 */
export class DiscordStrategy
  extends PassportStrategy(Strategy, 'discord')
  implements OnApplicationShutdown
{
  private readonly profileUrl: string;

  constructor(config: AppConfig) {
    const cfg = config.auth.discord!;
    super({
      clientID: cfg.clientId,
      clientSecret: cfg.clientSecret,
      callbackURL: callbackUrl(config, 'discord'),
      authorizationURL: cfg.authorizationUrl,
      tokenURL: cfg.tokenUrl,
      scope: ['identify', 'email'],
      state: true,
      sessionKey: 'oauth2:discord',
    });
    this.profileUrl = cfg.userProfileUrl;
    loginStrategies.started('discord', this);
  }

  override userProfile(
    accessToken: string,
    done: (err?: unknown, profile?: unknown) => void,
  ): void {
    const oauth2 = (this as unknown as { _oauth2: OAuth2Client })._oauth2;
    oauth2.get(this.profileUrl, accessToken, (err, body) => {
      if (err) return done(new Error('Failed to fetch the user profile'));
      try {
        const profile = JSON.parse(String(body)) as DiscordUser & { provider?: string };
        profile.provider = 'discord';
        done(null, profile);
      } catch {
        done(new Error('Failed to parse the user profile'));
      }
    });
  }

  validate(_accessToken: string, _refreshToken: string, profile: DiscordUser): LoginProfile {
    if (!profile?.id) throw new Error('Discord profile without id');
    return {
      provider: 'discord',
      providerUserId: String(profile.id),
      username: profile.username ?? String(profile.id),
      email: profile.email ?? null,
      imageUrl: profile.avatar
        ? `https://cdn.discordapp.com/avatars/${profile.id}/${profile.avatar}.png`
        : null,
    };
  }

  onApplicationShutdown(): void {
    loginStrategies.stopped('discord', this);
  }
}
