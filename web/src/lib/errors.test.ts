import { describe, expect, it } from 'vitest';
import { createErrorMessage, isNotFound, reportErrorMessage } from './errors';

describe('error detail → German message', () => {
  it.each([
    ['Code already exists', 'Der Code ist bereits vergeben'],
    ['URL is blacklisted', 'Der Link ist auf der Blacklist. Du darfst auf ihn nicht verlinken'],
    ['Uses must be greater than 0', 'Die maximalen Aufrufe müssen größer als 0 sein'],
    ['Expire At must be in the future', 'Das Ablaufdatum muss in der Zukunft liegen'],
    ['Something else', 'Link konnte nicht erstellt werden'],
  ])('create: %s', (detail, text) => {
    expect(createErrorMessage({ status: 400, detail })).toBe(text);
  });

  it('create: no body at all', () => {
    expect(createErrorMessage(new TypeError('Failed to fetch'))).toBe(
      'Link konnte nicht erstellt werden',
    );
    expect(createErrorMessage(undefined)).toBe('Link konnte nicht erstellt werden');
  });

  it.each([
    ['Entity already exists', 'Du hast diesen Short bereits gemeldet.'],
    ['Entity URLShort not exists', 'Der Short existiert nicht.'],
    ['nope', 'Die Beschwerde konnte nicht gesendet werden.'],
  ])('report: %s', (detail, text) => {
    expect(reportErrorMessage({ detail })).toBe(text);
  });

  it('recognizes the not-found answer', () => {
    expect(isNotFound({ status: 404, errorKey: 'entity_not_exists' })).toBe(true);
    expect(isNotFound({ status: 500 })).toBe(false);
    expect(isNotFound(null)).toBe(false);
  });
});
