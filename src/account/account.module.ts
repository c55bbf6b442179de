import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ApiKeyModule } from '../apikey/apikey.module';
import { SessionModule } from '../session/session.module';
import { AccountController } from './account.controller';
import { AuthController } from './auth.controller';
import { AuthPipeline } from './auth-pipeline';
import { LoginService } from './login.service';
import { UserEntity } from './user.entity';
import { UserService } from './user.service';

/** Users, login providers, sessions, and the request authentication pipeline (see AuthPipeline). */
@Module({
  imports: [TypeOrmModule.forFeature([UserEntity]), SessionModule, ApiKeyModule],
  controllers: [AccountController, AuthController],
  providers: [UserService, LoginService, AuthPipeline],
  exports: [UserService, SessionModule, AuthPipeline],
})
export class AccountModule {}
