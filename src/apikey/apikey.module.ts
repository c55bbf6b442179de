import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AccessModule } from '../access/access.module';
import { ApiKeyController, ApiKeysController } from './apikey.controller';
import { ApiKeyEntity } from './apikey.entity';
import { ApiKeyService } from './apikey.service';

@Module({
  imports: [TypeOrmModule.forFeature([ApiKeyEntity]), AccessModule],
  controllers: [ApiKeyController, ApiKeysController],
  providers: [ApiKeyService],
  exports: [ApiKeyService],
})
export class ApiKeyModule {}
