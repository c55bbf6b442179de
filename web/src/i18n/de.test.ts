import { describe, expect, it } from 'vitest';
import { de, t } from './de';

/** Every user-visible German string of SPEC.md (§2, §5, §8, §3 columns), verbatim. */
const SPEC_STRINGS = [
  'URL-Shorter: Teile deine Links einfach und schnell',
  'Anmelden',
  'Mit {provider} anmelden',
  'Nicht aktiviert',
  'System nicht erreichbar',
  'Deine Shorts',
  'Du musst eingeloggt sein um diese Seite zu sehen.',
  'Link verfolgen',
  'Eigene Shorts',
  'Interner Fehler',
  'Unbegrenzt',
  'Ungültige URL/Short',
  'Endgültig löschen',
  'Link Melden',
  'Statistiken',
  'Beschwerden',
  'coming soon',
  'Fehler beim Laden der Short Information',
  'Der Short {code} wurde nicht gefunden.',
  'Short trotzdem öffnen',
  'Link öffnen',
  'Gefährlich',
  'Ungefährlich',
  'Kopiert!',
  'Verstanden als: {date}',
  'Nutzungsbedingungen müssen akzeptiert werden!',
  'Es muss eine Art der Beschwerde ausgewählt werden.',
  'Es muss eine Beschreibung angegeben werden.',
  'Sie müssen eingeloggt sein, um einen Short zu melden.',
  'Der Code ist bereits vergeben',
  'Der Link ist auf der Blacklist. Du darfst auf ihn nicht verlinken',
  'Die maximalen Aufrufe müssen größer als 0 sein',
  'Das Ablaufdatum muss in der Zukunft liegen',
  'Link konnte nicht erstellt werden',
  'Der Short wurde erfolgreich erstellt',
  'Du hast diesen Short bereits gemeldet.',
  'Der Short existiert nicht.',
  'Die Beschwerde konnte nicht gesendet werden.',
  'Die Beschwerde wurde erfolgreich gesendet.',
  'Short erfolgreich gelöscht!',
  'Short konnte nicht gelöscht werden!',
  'Short erfolgreich gelöscht',
  'Fehler beim Löschen der Short',
  'Shorts erfolgreich gelöscht',
  'Fehler beim Löschen der Shorts',
  'Api Key erfolgreich generiert!',
  'Api Key erfolgreich neu generiert!',
  'Api Key konnte nicht generiert werden!',
  'Api Key konnte nicht neu generiert werden!',
  'Möchtest du wirklich einen neuen Api Key generieren?',
  'Es es wurde noch kein Api Key generiert',
  'Kopieren fehlgeschlagen!',
  'Link wurde kopiert.',
  'Fehler beim öffnen des Menüs',
  'Es wurden keine Login Anbieter konfiguriert. Bitte wende dich an den Support.',
  'Unbekannter Fehler',
  'Es sind noch keine Einträge vorhanden.',
  'Es finden gerade Wartungsarbeiten statt. Die Seite ist daher nicht vollständig verfügbar. Bei Fragen und Problemen wende dich bitte an den Support.',
  'Der Dienst ist zur Zeit nicht verfügbar. Bitte versuche es später noch einmal. Bei Fragen und Problemen wende dich bitte an den Support.',
  'Start',
  'Account',
  'Admin',
  'Abmelden',
  '300+ Links',
  '100+ Aufrufe',
  '41+ Nutzer',
  'ID',
  'Name',
  'Code',
  'Url',
  'Max. Aufrufe',
  'Bedrohlichkeit',
  'Erstellt am',
  'Ablaufdatum',
];

function strings(v: unknown): string[] {
  if (typeof v === 'string') return [v];
  if (Array.isArray(v)) return v.flatMap(strings);
  if (v && typeof v === 'object') return Object.values(v).flatMap(strings);
  return [];
}

describe('de.ts', () => {
  it('holds every German string of the specification verbatim', () => {
    const all = new Set(strings(de));
    expect(SPEC_STRINGS.filter((s) => !all.has(s))).toEqual([]);
  });

  it('maps the error details of the catalogue', () => {
    expect(de.create.errors['Code already exists']).toBe('Der Code ist bereits vergeben');
    expect(de.report.errors['Entity URLShort not exists']).toBe('Der Short existiert nicht.');
  });

  it('fills placeholders', () => {
    expect(t(de.info.notFound, { code: 'abc' })).toBe('Der Short abc wurde nicht gefunden.');
    expect(t(de.login.withProvider, { provider: 'GitHub' })).toBe('Mit GitHub anmelden');
    expect(t('{x} {y}', { x: 1 })).toBe('1 {y}');
  });
});
