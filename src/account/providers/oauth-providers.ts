import type { Profile as PassportProfile } from 'passport';
import { Strategy as DiscordStrategyBase } from 'passport-discord';
import { Strategy as GitHubStrategy } from 'passport-github2';
import type { VerifyCallback } from 'passport-oauth2';
import type { OAuthProviderConfig } from '../../config/config';
import type { LoginProfile } from '../user.service';

type Done = (err: unknown, user?: LoginProfile | false) => void;

/** GitHub through passport-github2, every endpoint overridable; state and PKCE kept in the session. */
export function githubStrategy(cfg: OAuthProviderConfig, callbackURL: string): GitHubStrategy {
  return new GitHubStrategy(
    {
      clientID: cfg.clientId,
      clientSecret: cfg.clientSecret,
      callbackURL,
      authorizationURL: cfg.authorizationUrl,
      tokenURL: cfg.tokenUrl,
      userProfileURL: cfg.userProfileUrl,
      userEmailURL: cfg.userEmailsUrl,
      scope: ['read:user', 'user:email'],
      state: true,
      pkce: true,
      sessionKey: 'oauth2:github',
    } as never,
    ((
      _at: string,
      _rt: string,
      profile: PassportProfile & { _json?: Record<string, unknown> },
      done: Done,
    ) => {
      done(null, {
        provider: 'github',
        providerUserId: String(profile.id),
        username: profile.username ?? String(profile.id),
        email: profile.emails?.[0]?.value ?? null,
        imageUrl:
          profile.photos?.[0]?.value ?? (profile._json?.avatar_url as string | undefined) ?? null,
      });
    }) as never,
  );
}

interface DiscordUser {
  id: string;
  username: string;
  email?: string | null;
  avatar?: string | null;
}

/** passport-discord with an overridable profile URL (the package hard-codes discord.com). */
class DiscordStrategy extends DiscordStrategyBase {
  constructor(
    options: ConstructorParameters<typeof DiscordStrategyBase>[0],
    verify: (at: string, rt: string, profile: DiscordUser, done: VerifyCallback) => void,
    private readonly profileUrl: string,
  ) {
    super(options, verify as never);
  }

  override userProfile(
    accessToken: string,
    done: (err?: unknown, profile?: unknown) => void,
  ): void {
    const oauth2 = (
      this as unknown as {
        _oauth2: {
          get(url: string, token: string, cb: (err: unknown, body?: string | Buffer) => void): void;
        };
      }
    )._oauth2;
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
}

export function discordStrategy(
  cfg: OAuthProviderConfig,
  callbackURL: string,
): DiscordStrategyBase {
  return new DiscordStrategy(
    {
      clientID: cfg.clientId,
      clientSecret: cfg.clientSecret,
      callbackURL,
      authorizationURL: cfg.authorizationUrl,
      tokenURL: cfg.tokenUrl,
      scope: ['identify', 'email'],
      state: true,
      sessionKey: 'oauth2:discord',
    } as ConstructorParameters<typeof DiscordStrategyBase>[0],
    (_at, _rt, profile, done) => {
      if (!profile?.id) return done(new Error('Discord profile without id'));
      done(null, {
        provider: 'discord',
        providerUserId: String(profile.id),
        username: profile.username ?? String(profile.id),
        email: profile.email ?? null,
        imageUrl: profile.avatar
          ? `https://cdn.discordapp.com/avatars/${profile.id}/${profile.avatar}.png`
          : null,
      } satisfies LoginProfile as never);
    },
    cfg.userProfileUrl,
  );
}
