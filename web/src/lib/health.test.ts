import { describe, expect, it } from 'vitest';
import { checkFinding, healthFacts, healthView } from './health';

const at = '2026-05-01T11:00:00.000Z';
const date = (iso: string) => `[${iso.slice(0, 10)}]`;

describe('the link health as one state', () => {
  it("tells apart what the server calls 'unknown'", () => {
    const none = { status: null, checkedAt: null, failingSince: null };
    expect(healthView({ ...none, state: 'unknown' })).toBe('unchecked');
    expect(healthView({ ...none, state: 'unknown', checkedAt: at })).toBe('uncheckable');
    expect(healthView({ ...none, state: 'unknown', checkedAt: at, failingSince: at })).toBe(
      'failing',
    );
    expect(healthView({ ...none, state: 'broken', checkedAt: at, failingSince: at })).toBe(
      'broken',
    );
    expect(healthView({ ...none, state: 'ok', checkedAt: at })).toBe('ok');
  });

  it('gives the facts beside the state, without repeating it', () => {
    expect(
      healthFacts({ state: 'unknown', status: 500, checkedAt: at, failingSince: at }, date),
    ).toEqual([
      'seit [2026-05-01]',
      'zuletzt geprüft am [2026-05-01]',
      'Antwort: HTTP 500',
      'nach 3 Fehlschlägen in Folge gilt der Link als defekt',
    ]);
    expect(
      healthFacts({ state: 'ok', status: 200, checkedAt: at, failingSince: null }, date),
    ).toEqual(['zuletzt geprüft am [2026-05-01]', 'Antwort: HTTP 200']);
    expect(
      healthFacts({ state: 'unknown', status: null, checkedAt: null, failingSince: null }, date),
    ).toEqual([]);
  });

  it("says what 'Jetzt prüfen' found", () => {
    expect(checkFinding({ state: 'ok', status: 200, checkedAt: at, failingSince: null })).toBe(
      'Geprüft: Das Ziel ist erreichbar (Antwort: HTTP 200).',
    );
    expect(checkFinding({ state: 'broken', status: null, checkedAt: at, failingSince: at })).toBe(
      'Geprüft: Das Ziel antwortet nicht. Der Link gilt als defekt.',
    );
    expect(
      checkFinding({ state: 'unknown', status: null, checkedAt: at, failingSince: null }),
    ).toBe('Geprüft: Dieses Ziel darf der Dienst nicht abrufen, sein Zustand bleibt offen.');
  });
});
