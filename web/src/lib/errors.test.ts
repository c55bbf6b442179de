import { describe, expect, it } from 'vitest';
import { ApiError, NetworkError } from '../api/errors';
import {
  createErrorMessage,
  fieldErrors,
  isNotFound,
  loadErrorText,
  problemText,
  rateLimitText,
  retryWhen,
  reportErrorMessage,
} from './errors';

const problem = (status: number, body: Record<string, unknown> = {}) =>
  new ApiError(status, { status, ...body });
const UNAVAILABLE = 'Der Dienst ist gerade nicht erreichbar. Bitte versuche es gleich noch einmal.';

describe('error detail → German message', () => {
  it.each([
    ['Code already exists', 'Der Code ist bereits vergeben'],
    ['URL is blacklisted', 'Der Link ist auf der Blacklist. Du darfst auf ihn nicht verlinken'],
    ['Uses must be greater than 0', 'Die maximalen Aufrufe müssen größer als 0 sein'],
    ['Expire At must be in the future', 'Das Ablaufdatum muss in der Zukunft liegen'],
    ['Something else', 'Link konnte nicht erstellt werden'],
  ])('create: %s', (detail, text) => {
    expect(createErrorMessage(problem(400, { detail }))).toBe(text);
  });

  it('create: no body at all', () => {
    expect(createErrorMessage(new NetworkError(new TypeError('Failed to fetch')))).toBe(
      'Link konnte nicht erstellt werden',
    );
    expect(createErrorMessage(undefined)).toBe('Link konnte nicht erstellt werden');
    // A plain object is no answer of the API layer (which throws ApiError only).
    expect(createErrorMessage({ status: 400, detail: 'Code already exists' })).toBe(
      'Link konnte nicht erstellt werden',
    );
  });

  it('a detail that names an object property is no catalogue text', () => {
    for (const detail of ['toString', 'constructor', '__proto__', 'hasOwnProperty']) {
      expect(createErrorMessage(problem(400, { detail }))).toBe(
        'Link konnte nicht erstellt werden',
      );
      expect(reportErrorMessage(problem(400, { detail }))).toBe(
        'Die Beschwerde konnte nicht gesendet werden.',
      );
    }
  });

  it.each([
    ['Entity already exists', 'Du hast diesen Short bereits gemeldet.'],
    ['Entity URLShort not exists', 'Der Short existiert nicht.'],
    ['nope', 'Die Beschwerde konnte nicht gesendet werden.'],
  ])('report: %s', (detail, text) => {
    expect(reportErrorMessage(problem(400, { detail }))).toBe(text);
  });

  it('recognizes the not-found answer', () => {
    expect(isNotFound(problem(404, { errorKey: 'entity_not_exists' }))).toBe(true);
    expect(isNotFound(problem(400, { errorKey: 'entity_not_exists' }))).toBe(true);
    expect(isNotFound(new ApiError(404, ''))).toBe(true);
    expect(isNotFound(problem(500))).toBe(false);
    expect(isNotFound(null)).toBe(false);
  });

  it('a 503 (database away) reads as the unavailable text wherever errors are generic', () => {
    const down = problem(503, { detail: 'Service temporarily unavailable' });
    expect(problemText(down)).toBe(UNAVAILABLE);
    expect(createErrorMessage(down)).toBe(UNAVAILABLE);
    expect(reportErrorMessage(down)).toBe(UNAVAILABLE);
    expect(problemText(problem(500, { detail: 'Boom' }))).toBe('Boom');
    expect(problemText(problem(500))).toBe('Unbekannter Fehler');
    expect(problemText(problem(500), 'Anders')).toBe('Anders');
    expect(problemText(new NetworkError(new Error('offline')))).toBe('Unbekannter Fehler');
  });
});

describe('ApiError', () => {
  it('reads status, detail, errorKey, fieldErrors and title of a problem+json body', () => {
    const e = new ApiError(400, {
      type: 'about:blank',
      title: 'Bad Request',
      status: 400,
      detail: 'Validation failed',
      errorKey: 'validation',
      fieldErrors: { name: 'must be at most 100 characters', maxUses: 7 },
    });
    expect(e).toBeInstanceOf(Error);
    expect(e).toMatchObject({
      status: 400,
      detail: 'Validation failed',
      errorKey: 'validation',
      title: 'Bad Request',
      message: 'Validation failed',
    });
    expect(e.fieldErrors).toEqual({ name: 'must be at most 100 characters', maxUses: '7' });
    expect(fieldErrors(e)).toEqual(e.fieldErrors);
    expect(fieldErrors(new Error('x'))).toEqual({});
  });

  it('keeps an unreadable body and leaves the fields empty', async () => {
    const e = await ApiError.fromResponse(
      new Response('<html>Bad Gateway</html>', { status: 502 }),
    );
    expect(e).toMatchObject({ status: 502, detail: undefined, title: undefined });
    expect(e.body).toBe('<html>Bad Gateway</html>');
    expect(e.message).toBe('HTTP 502');
    const empty = await ApiError.fromResponse(new Response('', { status: 500 }));
    expect(empty.body).toBeUndefined();
    const json = await ApiError.fromResponse(
      new Response('{"status":503,"detail":"x"}', { status: 503 }),
    );
    expect(json.unavailable).toBe(true);
    expect(json.detail).toBe('x');
  });
});

describe('load error text', () => {
  it('status with detail, title, or Unbekannter Fehler', () => {
    expect(loadErrorText(problem(500, { detail: 'Kaputt', title: 'Internal Server Error' }))).toBe(
      'Status 500: Kaputt',
    );
    expect(loadErrorText(problem(502, { title: 'Bad Gateway' }))).toBe('Status 502: Bad Gateway');
    expect(loadErrorText(problem(500))).toBe('Status 500: Unbekannter Fehler');
    expect(loadErrorText(new NetworkError(new Error('Netzwerk')))).toBe('Netzwerk');
    expect(loadErrorText(null)).toBe('Unbekannter Fehler');
  });
});

describe('rate limits (429 rate_limited) → when to try again, in German', () => {
  const limited = (body: Record<string, unknown> = {}, header?: string) =>
    new ApiError(
      429,
      { status: 429, detail: 'Too many requests', errorKey: 'rate_limited', ...body },
      header,
    );
  const now = new Date(2026, 10, 25, 14, 0, 0);

  it.each([
    [1, 'in einer Sekunde'],
    [42, 'in 42 Sekunden'],
    [60, 'in einer Minute'],
    [61, 'in 2 Minuten'],
    [59 * 60, 'in 59 Minuten'],
    [2 * 3600 + 300, 'um 16:05 Uhr'],
    [11 * 3600, 'am 26.11. um 01:00 Uhr'],
  ])('%i s → %s', (seconds, when) => {
    expect(retryWhen(seconds, now)).toBe(when);
    expect(rateLimitText(limited({ retryAfter: seconds }), now)).toBe(
      `Zu viele Anfragen. Du kannst es ${when} wieder versuchen.`,
    );
  });

  it('takes the Retry-After header when the body has no retryAfter, and says "later" without either', () => {
    expect(limited({}, '30').retryAfter).toBe(30);
    expect(rateLimitText(limited({}, '30'), now)).toBe(
      'Zu viele Anfragen. Du kannst es in 30 Sekunden wieder versuchen.',
    );
    expect(rateLimitText(limited({}, 'soon'), now)).toBe(
      'Zu viele Anfragen. Bitte versuche es später noch einmal.',
    );
  });

  it('is the message of create, report and every generic failure; other 429s are not rate limits', () => {
    const err = limited({ retryAfter: 42 });
    const text = 'Zu viele Anfragen. Du kannst es in 42 Sekunden wieder versuchen.';
    expect(createErrorMessage(err)).toBe(text);
    expect(reportErrorMessage(err)).toBe(text);
    expect(problemText(err)).toBe(text);
    const locked = new ApiError(429, {
      status: 429,
      detail: 'Too many wrong passwords, try again later',
    });
    expect(locked.rateLimited).toBe(false);
    expect(rateLimitText(locked)).toBeUndefined();
  });
});
