import { InitialSchema1763770000000 } from './1763770000000-initial-schema';
import { SessionsApiKeys1763780000000 } from './1763780000000-sessions-api-keys';

/** Every migration, in order. New migrations are appended here. */
export const MIGRATIONS = [InitialSchema1763770000000, SessionsApiKeys1763780000000];
