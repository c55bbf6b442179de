import { fromAreas } from '../areas';
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
 * Every user-visible German string of the product, one file per area of the client. Keys are
 * stable; texts are verbatim from the product specification (i18n/de.test.ts checks them against
 * the components that render them). The shape is `Messages` (i18n/text.ts): a second language is
 * a catalogue of that type, split into the same areas (i18n/en/).
 */
export const de = fromAreas(app, pages, consent, shorts, info, admin, account, errors, teams);
