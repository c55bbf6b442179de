import { UserEntity } from '../account/user.entity';
import { BlacklistEntity } from '../blacklist/blacklist.entity';
import { ShortEntity } from '../code/short.entity';

/** Every entity the data source knows. Feature modules append theirs here. */
export const ENTITIES = [UserEntity, ShortEntity, BlacklistEntity];
