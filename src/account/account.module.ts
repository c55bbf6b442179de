import { type FactoryProvider, Module } from '@nestjs/common';
import { ApiKeyModule } from '../apikey/apikey.module';
import { APP_CONFIG, type AppConfig, type AuthConfig } from '../config/config';
import { SessionModule } from '../session/session.module';
import { AccountController } from './account.controller';
import { AuthController } from './auth.controller';
import { AuthPipeline } from './auth-pipeline';
import { LoginCallbackGuard, LoginStartGuard } from './login.guard';
import { LoginService } from './login.service';
import { DiscordStrategy } from './providers/discord.strategy';
import { GithubStrategy } from './providers/github.strategy';
import { OidcDiscovery } from './providers/oidc.strategy';
import { UsersModule } from './users.module';

/**
 * A login strategy that exists only when its provider is configured: creating a PassportStrategy
 * registers it with passport, so an unconfigured provider is never registered.
 */
function strategyWhenConfigured<T>(
  strategy: new (config: AppConfig) => T,
  configured: (auth: AuthConfig) => unknown,
): FactoryProvider<T | null> {
  return {
    provide: strategy,
    inject: [APP_CONFIG],
    useFactory: (config: AppConfig) => (configured(config.auth) ? new strategy(config) : null),
  };
}

/**
 * Users (UsersModule), login providers (PassportStrategy classes behind the login guards; OIDC's is created at
 * the first login by OidcDiscovery), sessions, and the request authentication pipeline (see
 * AuthPipeline).
 */
@Module({
  imports: [UsersModule, SessionModule, ApiKeyModule],
  controllers: [AccountController, AuthController],
  providers: [
    LoginService,
    AuthPipeline,
    OidcDiscovery,
    LoginStartGuard,
    LoginCallbackGuard,
    strategyWhenConfigured(GithubStrategy, (auth) => auth.github),
    strategyWhenConfigured(DiscordStrategy, (auth) => auth.discord),
  ],
  exports: [UsersModule, SessionModule, AuthPipeline],
})
export class AccountModule {}
