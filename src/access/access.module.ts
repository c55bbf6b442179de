import { Module } from '@nestjs/common';
import { AccessPolicy } from './access-policy';

/**
 * The access policy (AccessPolicy): who may read or write what users and teams own. It reads
 * `team_members` with plain SQL, so it depends on no module's entities (teams/ depends on it).
 */
@Module({ providers: [AccessPolicy], exports: [AccessPolicy] })
export class AccessModule {}
