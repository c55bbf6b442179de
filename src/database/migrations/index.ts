import { InitialSchema1763770000000 } from './1763770000000-initial-schema';
import { SessionsApiKeys1763780000000 } from './1763780000000-sessions-api-keys';
import { Reports1763790000000 } from './1763790000000-reports';
import { AppliedBatches1763800000000 } from './1763800000000-applied-batches';
import { Statistics1763810000000 } from './1763810000000-statistics';
import { Domains1763830000000 } from './1763830000000-domains';
import { ShortDomains1763840000000 } from './1763840000000-short-domains';
import { ShortRules1763850000000 } from './1763850000000-short-rules';
import { LinkHealth1763860000000 } from './1763860000000-link-health';
import { StatisticsRollups1763870000000 } from './1763870000000-statistics-rollups';
import { HealthDueIndex1763880000000 } from './1763880000000-health-due-index';
import { DomainClaims1763895000000 } from './1763895000000-domain-claims';
import { Teams1763900000000 } from './1763900000000-teams';
import { Webhooks1763910000000 } from './1763910000000-webhooks';
import { Tags1763920000000 } from './1763920000000-tags';
import { QrStyle1764000000000 } from './1764000000000-qr-style';
import { UtmTemplates1764010000000 } from './1764010000000-utm-templates';
import { ShortPreview1764020000000 } from './1764020000000-short-preview';
import { Pages1764030000000 } from './1764030000000-pages';
import { OwnSpaceIndex1764040000000 } from './1764040000000-own-space-index';
import { ShortTagsCreated1764050000000 } from './1764050000000-short-tags-created';

/** Every migration, in order. New migrations are appended here. */
export const MIGRATIONS = [
  InitialSchema1763770000000,
  SessionsApiKeys1763780000000,
  Reports1763790000000,
  AppliedBatches1763800000000,
  Statistics1763810000000,
  Domains1763830000000,
  ShortDomains1763840000000,
  ShortRules1763850000000,
  LinkHealth1763860000000,
  StatisticsRollups1763870000000,
  HealthDueIndex1763880000000,
  DomainClaims1763895000000,
  Teams1763900000000,
  Webhooks1763910000000,
  Tags1763920000000,
  QrStyle1764000000000,
  UtmTemplates1764010000000,
  ShortPreview1764020000000,
  Pages1764030000000,
  OwnSpaceIndex1764040000000,
  ShortTagsCreated1764050000000,
];
