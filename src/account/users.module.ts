import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { UserEntity } from './user.entity';
import { UserService } from './user.service';

/**
 * The `users` table and its service alone, without logins, sessions or API keys: AccountModule
 * builds on it, and the operator's CLI (src/cli) imports only this.
 */
@Module({
  imports: [TypeOrmModule.forFeature([UserEntity])],
  providers: [UserService],
  exports: [UserService],
})
export class UsersModule {}
