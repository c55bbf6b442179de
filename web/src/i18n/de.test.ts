import type { ErrorKey } from '@shared/error-keys';
import type { ShortFieldName } from '@shared/short-fields';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { de } from './de';
import { t, type Messages, type Text } from './text';

/** The client's source files (not the tests, not this catalogue, not the generated API types). */
const sources = Object.entries(
  import.meta.glob<string>('../**/*.{ts,tsx}', { query: '?raw', import: 'default', eager: true }),
).filter(
  ([path]) => !/\.test\.tsx?$|(^\.|\/i18n)\/(de|en)\/|\/schema\.d\.ts$|test-utils/.test(path),
);

/**
 * Every `msg.a.b.c` (the current catalogue, i18n/current.ts) or `de.a.b.c` written in the sources
 * (the part before a `[` lookup or a call).
 */
function usedPaths(): Map<string, string[]> {
  const used = new Map<string, string[]>();
  for (const [file, text] of sources) {
    for (const m of text.matchAll(/\b(?:msg|de)\.([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*)/g)) {
      used.set(m[1], [...(used.get(m[1]) ?? []), file]);
    }
  }
  return used;
}

/** Walks a dotted path through the catalogue; stops (ok) at a string's or an array's own members. */
function resolve(path: string): { ok: boolean; value?: unknown } {
  let v: unknown = de;
  for (const key of path.split('.')) {
    if (typeof v === 'string' || Array.isArray(v)) return { ok: key in Object(v), value: v };
    if (v === null || typeof v !== 'object' || !(key in v)) return { ok: false };
    v = (v as Record<string, unknown>)[key];
  }
  return { ok: true, value: v };
}

/**
 * Whether a component reads the catalogue at `path` (['info', 'loadError']): the key itself, or a
 * parent looked up with `[…]` (maps by error detail) or handed on whole (`validateReport(…, de.report)`).
 */
function isRendered(path: readonly string[]): boolean {
  const used = [...usedPaths().keys()];
  const all = sources.map(([, text]) => text).join('\n');
  if (used.includes(path.join('.'))) return true;
  for (let n = path.length - 1; n >= 1; n--) {
    const parent = path.slice(0, n).join('.').replace(/[.$]/g, '\\$&');
    if (new RegExp(`\\b(?:msg|de)\\.${parent}(?![\\w$.])`).test(all)) return true;
  }
  return false;
}

/** German texts of the product specification, verbatim, and the catalogue key a component renders each from. */
const SPEC_TEXTS: [string, string[]][] = [
  ['URL-Shorter: Teile deine Links einfach und schnell', ['app', 'pageTitle']],
  ['Anmelden', ['nav', 'login']],
  ['Anmelden', ['login', 'title']],
  ['Mit {provider} anmelden', ['login', 'withProvider']],
  ['Nicht aktiviert', ['account', 'notActivated']],
  ['System nicht erreichbar', ['offline', 'title']],
  ['Deine Shorts', ['shorts', 'title']],
  ['Du musst eingeloggt sein um diese Seite zu sehen.', ['auth', 'mustBeLoggedIn']],
  ['Link verfolgen', ['nav', 'follow']],
  ['Eigene Shorts', ['nav', 'ownShorts']],
  ['Interner Fehler', ['error', 'title']],
  ['Unbegrenzt', ['create', 'unlimited']],
  ['Unbegrenzt', ['shorts', 'unlimited']],
  ['Ungültige URL/Short', ['lookup', 'invalid']],
  ['Endgültig löschen', ['info', 'deleteFinal']],
  ['Endgültig löschen', ['shorts', 'confirm']],
  ['Link Melden', ['info', 'report']],
  ['Statistiken', ['info', 'statistics']],
  ['Beschwerden', ['info', 'complaints']],
  // 'coming soon' (the accordions) is gone: owners see statistics and reports (issue 20).
  ['Fehler beim Laden der Short Information', ['info', 'loadError']],
  ['Der Short {code} wurde nicht gefunden.', ['info', 'notFound']],
  ['Short trotzdem öffnen', ['dangerous', 'open']],
  ['Link öffnen', ['info', 'open']],
  ['Gefährlich', ['shorts', 'dangerous']],
  ['Ungefährlich', ['shorts', 'harmless']],
  ['Kopiert!', ['account', 'copied']],
  ['Verstanden als: {date}', ['create', 'understoodAs']],
  ['Nutzungsbedingungen müssen akzeptiert werden!', ['login', 'termsRequired']],
  ['Es muss eine Art der Beschwerde ausgewählt werden.', ['report', 'typeRequired']],
  ['Es muss eine Beschreibung angegeben werden.', ['report', 'descriptionRequired']],
  ['Sie müssen eingeloggt sein, um einen Short zu melden.', ['report', 'mustLogin']],
  ['Der Code ist bereits vergeben', ['errors', 'code_exists']],
  [
    'Der Link ist auf der Blacklist. Du darfst auf ihn nicht verlinken',
    ['errors', 'url_blacklisted'],
  ],
  ['Die maximalen Aufrufe müssen größer als 0 sein', ['errors', 'uses_min']],
  ['Das Ablaufdatum muss in der Zukunft liegen', ['errors', 'expire_past']],
  ['Link konnte nicht erstellt werden', ['create', 'errorOther']],
  // Said once, by the info page's banner (issue 20): no toast besides.
  ['Der Short wurde erfolgreich erstellt', ['info', 'created']],
  ['Du hast diesen Short bereits gemeldet.', ['errors', 'report_exists']],
  ['Der Short existiert nicht.', ['errors', 'entity_not_exists']],
  ['Die Beschwerde konnte nicht gesendet werden.', ['report', 'errorOther']],
  ['Die Beschwerde wurde erfolgreich gesendet.', ['report', 'success']],
  ['Short erfolgreich gelöscht!', ['info', 'deleted']],
  ['Short konnte nicht gelöscht werden!', ['info', 'deleteFailed']],
  ['Short erfolgreich gelöscht', ['shorts', 'deleted']],
  ['Fehler beim Löschen der Short', ['shorts', 'deleteFailed']],
  ['Shorts erfolgreich gelöscht', ['shorts', 'bulkDeleted']],
  ['Fehler beim Löschen der Shorts', ['shorts', 'bulkDeleteFailed']],
  ['Api Key erfolgreich generiert!', ['account', 'apiKeyGenerated']],
  ['Api Key erfolgreich neu generiert!', ['account', 'apiKeyRegenerated']],
  ['Api Key konnte nicht generiert werden!', ['account', 'apiKeyGenerateFailed']],
  ['Api Key konnte nicht neu generiert werden!', ['account', 'apiKeyRegenerateFailed']],
  ['Möchtest du wirklich einen neuen Api Key generieren?', ['account', 'apiKeyConfirm']],
  ['Es wurde noch kein Api Key generiert', ['account', 'apiKeyNone']],
  ['Kopieren fehlgeschlagen!', ['info', 'copyFailed']],
  ['Kopieren fehlgeschlagen!', ['account', 'copyFailed']],
  ['Link wurde kopiert.', ['info', 'linkCopied']],
  ['Fehler beim öffnen des Menüs', ['info', 'shareFailed']],
  [
    'Es wurden keine Login Anbieter konfiguriert. Bitte wende dich an den Support.',
    ['login', 'noProvider'],
  ],
  ['Unbekannter Fehler', ['error', 'unknown']],
  ['Unbekannter Fehler', ['shorts', 'unknownError']],
  ['Es sind noch keine Einträge vorhanden.', ['shorts', 'empty']],
  ['Es sind noch keine Einträge vorhanden.', ['admin', 'empty']],
  [
    'Es finden gerade Wartungsarbeiten statt. Die Seite ist daher nicht vollständig verfügbar. Bei Fragen und Problemen wende dich bitte an den Support.',
    ['toasts', 'maintenance'],
  ],
  [
    'Der Dienst ist zur Zeit nicht verfügbar. Bitte versuche es später noch einmal. Bei Fragen und Problemen wende dich bitte an den Support.',
    ['toasts', 'shutdown'],
  ],
  ['Start', ['nav', 'start']],
  ['Account', ['nav', 'account']],
  ['Admin', ['nav', 'admin']],
  ['Abmelden', ['nav', 'logout']],
  ['300+ Links', ['start', 'statLinks']],
  ['100+ Aufrufe', ['start', 'statCalls']],
  ['41+ Nutzer', ['start', 'statUsers']],
  ['ID', ['shorts', 'columns', 'id']],
  ['Name', ['shorts', 'columns', 'name']],
  ['Code', ['shorts', 'columns', 'code']],
  ['Url', ['shorts', 'columns', 'url']],
  ['Max. Aufrufe', ['shorts', 'columns', 'maxUses']],
  ['Bedrohlichkeit', ['shorts', 'columns', 'dangers']],
  ['Erstellt am', ['shorts', 'columns', 'createdAt']],
  ['Ablaufdatum', ['shorts', 'columns', 'expireAt']],
];

describe('de.ts', () => {
  it('has every key the components read', () => {
    const used = usedPaths();
    expect(used.size).toBeGreaterThan(100);
    const missing = [...used].filter(([path]) => !resolve(path).ok);
    expect(missing).toEqual([]);
  });

  it.each(SPEC_TEXTS.map(([text, path]) => [text, path.join('.'), path] as const))(
    'renders %j from de.%s',
    (text, _key, path) => {
      expect(pathValue(path)).toBe(text);
      expect(isRendered(path)).toBe(true);
    },
  );

  it('has the shape every language follows: a text for every ErrorKey and every field of the short', () => {
    // Checked by the compiler (tsc -p web/tsconfig.json): a second catalogue is a `Messages`.
    expectTypeOf(de).toExtend<Messages>();
    expectTypeOf<keyof Messages['errors']>().toEqualTypeOf<ErrorKey>();
    expectTypeOf<Messages['errors'][ErrorKey]>().toExtend<string>();
    expectTypeOf<Messages['fields']>().toEqualTypeOf<{ readonly [K in ShortFieldName]: string }>();
    // A text keeps the names of its placeholders (a translation must contain them).
    expectTypeOf<Messages['error']['retry']['seconds']>().toEqualTypeOf<Text<'n'>>();
    expectTypeOf<Messages['nav']['login']>().toEqualTypeOf<string>();
    // Texts, arrays and sections alike: any wording of the same shape is a catalogue.
    const other: Messages = JSON.parse(JSON.stringify(de)) as typeof de;
    expect(Object.keys(other)).toEqual(Object.keys(de));
  });

  it('fills placeholders', () => {
    expect(t(de.info.notFound, { code: 'abc' })).toBe('Der Short abc wurde nicht gefunden.');
    expect(t(de.login.withProvider, { provider: 'GitHub' })).toBe('Mit GitHub anmelden');
    expect(t('{x} {y}', { x: 1 })).toBe('1 {y}');
  });

  it('has the placeholder names checked by the compiler', () => {
    const msg: Messages = de;
    expect(t(msg.error.field, { field: 'URL', text: 'fehlt' })).toBe('URL: fehlt');
    // @ts-expect-error {text} is missing
    expect(t(msg.error.field, { field: 'URL' })).toBe('URL: {text}');
    // @ts-expect-error {count} is no placeholder of the text
    expect(t(msg.error.retry.seconds, { count: 5 })).toBe('in {n} Sekunden');
    // @ts-expect-error the text has a placeholder
    expect(t(msg.error.retry.seconds)).toBe('in {n} Sekunden');
    // @ts-expect-error a translation that loses a placeholder is no catalogue text
    const lost: Messages['error']['retry']['seconds'] = 'in a few seconds';
    expect(lost).not.toContain('{n}');
  });
});

/** The value at a path whose keys are not identifiers (error details with spaces). */
function pathValue(path: readonly string[]): unknown {
  let v: unknown = de;
  for (const key of path)
    v = v && typeof v === 'object' ? (v as Record<string, unknown>)[key] : undefined;
  return v;
}
