import { UserEntity } from '../account/user.entity';
import { ApiKeyEntity } from '../apikey/apikey.entity';
import { BlacklistEntity } from '../blacklist/blacklist.entity';
import { ShortEntity } from '../code/short.entity';
import { ReportEntity } from '../report/report.entity';
import { SessionEntity } from '../session/session.entity';

/** Every entity the data source knows. Feature modules append theirs here. */
export const ENTITIES = [
  UserEntity,
  ShortEntity,
  BlacklistEntity,
  SessionEntity,
  ApiKeyEntity,
  ReportEntity,
];
