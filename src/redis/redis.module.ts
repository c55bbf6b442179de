import { Global, Module } from '@nestjs/common';
import { RedisConnection } from './redis.connection';

/** The shared Redis connection (see RedisConnection), available everywhere. */
@Global()
@Module({ providers: [RedisConnection], exports: [RedisConnection] })
export class RedisModule {}
