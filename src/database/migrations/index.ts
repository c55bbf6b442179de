import { InitialSchema1763770000000 } from './1763770000000-initial-schema';

/** Every migration, in order. New migrations are appended here. */
export const MIGRATIONS = [InitialSchema1763770000000];
