import { currentLanguage } from '../i18n/current';
/**
 * The suggestions of the rules editor's value inputs (a datalist each): the countries (ISO 3166
 * alpha-2, the codes the statistics count) and common language tags, each with its German name
 * from Intl.DisplayNames, sorted by that name. Part of the rules editor's chunk only.
 */

/** ISO 3166-1 alpha-2, every assigned code. */
const COUNTRY_CODES = (
  'AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR ' +
  'BS BT BV BW BY BZ CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ ' +
  'EC EE EG EH ER ES ET FI FJ FK FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW ' +
  'GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN KP KR KW KY ' +
  'KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT MU MV ' +
  'MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY ' +
  'QA RE RO RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG ' +
  'TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW'
).split(' ');

/** Language tags visitors' browsers commonly send first (primary languages, some regions). */
const LANGUAGE_TAGS = (
  'de de-AT de-CH en en-GB en-US fr fr-CH it es es-MX pt pt-BR nl pl cs sk hu ro bg hr sr sl ' +
  'da sv nb fi et lv lt el tr ru uk ar he fa hi zh zh-TW ja ko th vi id'
).split(' ');

export interface Suggestion {
  value: string;
  label: string;
}

function named(codes: readonly string[], type: 'region' | 'language'): Suggestion[] {
  let names: Intl.DisplayNames | undefined;
  try {
    names = new Intl.DisplayNames([currentLanguage()], { type });
  } catch {
    names = undefined;
  }
  const label = (code: string) => {
    try {
      return names?.of(code) ?? code;
    } catch {
      return code;
    }
  };
  return codes
    .map((value) => ({ value, label: label(value) }))
    .sort((a, b) => a.label.localeCompare(b.label, currentLanguage()));
}

/** The lists per language of the interface (at most two, each built once). */
const lists = new Map<string, { countries?: Suggestion[]; languages?: Suggestion[] }>();
const listsOf = () => {
  let l = lists.get(currentLanguage());
  if (!l) lists.set(currentLanguage(), (l = {}));
  return l;
};

/** The countries with their names in the interface's language ('DE' → 'Deutschland'), by name. */
export function countrySuggestions(): Suggestion[] {
  return (listsOf().countries ??= named(COUNTRY_CODES, 'region'));
}

/** Common language tags with their names ('en-GB' → 'Englisch (Vereinigtes Königreich)'). */
export function languageSuggestions(): Suggestion[] {
  return (listsOf().languages ??= named(LANGUAGE_TAGS, 'language'));
}
