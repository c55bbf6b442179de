import { Module } from '@nestjs/common';
import { AccessPolicy } from './access-policy';

/** The access policy (AccessPolicy): who may read or write what users and teams own. */
@Module({ providers: [AccessPolicy], exports: [AccessPolicy] })
export class AccessModule {}
