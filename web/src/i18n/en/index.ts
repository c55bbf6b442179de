import { fromAreas } from '../areas';
import type { Messages } from '../text';
import { account } from './account';
import { admin } from './admin';
import { app } from './app';
import { consent } from './consent';
import { errors } from './errors';
import { info } from './info';
import { pages } from './pages';
import { shorts } from './shorts';
import { teams } from './teams';

/**
 * The English catalogue: the same areas and keys as the German one (`Messages`: the compiler
 * refuses a missing or an extra key, and a text without one of the German text's placeholders),
 * loaded as its own chunk only when English is chosen (state/language.ts). i18n/en.test.ts checks
 * that no placeholder is added.
 */
export const en: Messages = fromAreas(
  app,
  pages,
  consent,
  shorts,
  info,
  admin,
  account,
  errors,
  teams,
);
