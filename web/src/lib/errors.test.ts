import { ERROR_KEYS, type ErrorKey } from '@shared/error-keys';
import { CODE_MAX_LENGTH, CODE_MIN_LENGTH, MAX_NAME_LENGTH } from '@shared/limits';
import { describe, expect, it } from 'vitest';
import { ApiError, NetworkError } from '../api/errors';
import { de } from '../i18n/de';
import {
  errorText,
  fieldErrorTexts,
  isNotFound,
  keyText,
  loadErrorText,
  rateLimitText,
  retryWhen,
  shortFieldErrors,
} from './errors';

const problem = (status: number, body: Record<string, unknown> = {}) =>
  new ApiError(status, { status, ...body });
const UNAVAILABLE = 'Der Dienst ist gerade nicht erreichbar. Bitte versuche es gleich noch einmal.';
const CREATE_OTHER = 'Link konnte nicht erstellt werden';
const REPORT_OTHER = 'Die Beschwerde konnte nicht gesendet werden.';

describe('the catalogue of error keys', () => {
  it('has a German text for every ErrorKey, every placeholder filled', () => {
    expect(Object.keys(de.errors).sort()).toEqual([...ERROR_KEYS].sort());
    for (const key of ERROR_KEYS) {
      const text = keyText(key);
      expect(text.trim(), key).not.toBe('');
      expect(text, key).not.toMatch(/[{}]/);
    }
  });

  it('fills the limits the server enforces', () => {
    expect(keyText('code_invalid')).toContain(`${CODE_MIN_LENGTH} bis ${CODE_MAX_LENGTH} Zeichen`);
    expect(keyText('name_too_long')).toBe(
      `Der Name ist zu lang (höchstens ${MAX_NAME_LENGTH} Zeichen)`,
    );
  });
});

describe('errorKey → German message', () => {
  it.each([
    ['code_exists', 409, 'Der Code ist bereits vergeben'],
    ['url_blacklisted', 400, 'Der Link ist auf der Blacklist. Du darfst auf ihn nicht verlinken'],
    ['uses_min', 400, 'Die maximalen Aufrufe müssen größer als 0 sein'],
    ['expire_past', 400, 'Das Ablaufdatum muss in der Zukunft liegen'],
    ['bad_request', 400, CREATE_OTHER],
    ['internal_error', 500, CREATE_OTHER],
    ['forbidden', 403, CREATE_OTHER],
  ] as const)('create: %s', (errorKey, status, text) => {
    // The English detail plays no part: the key decides.
    expect(errorText(problem(status, { errorKey, detail: 'Anything' }), CREATE_OTHER)).toBe(text);
  });

  it('a problem without a known key is the view fallback, whatever its detail', () => {
    expect(errorText(problem(409, { detail: 'Code already exists' }), CREATE_OTHER)).toBe(
      CREATE_OTHER,
    );
    for (const errorKey of ['toString', 'constructor', '__proto__', 'hasOwnProperty', 'new_key']) {
      expect(errorText(problem(400, { errorKey }), CREATE_OTHER)).toBe(CREATE_OTHER);
      expect(errorText(problem(400, { errorKey }), REPORT_OTHER)).toBe(REPORT_OTHER);
    }
  });

  it('no answer at all: the fallback', () => {
    expect(errorText(new NetworkError(new TypeError('Failed to fetch')), CREATE_OTHER)).toBe(
      CREATE_OTHER,
    );
    expect(errorText(undefined, CREATE_OTHER)).toBe(CREATE_OTHER);
    // A plain object is no answer of the API layer (which throws ApiError only).
    expect(errorText({ status: 409, errorKey: 'code_exists' }, CREATE_OTHER)).toBe(CREATE_OTHER);
    expect(errorText(new Error('x'))).toBe('Unbekannter Fehler');
  });

  it.each([
    ['report_exists', 409, 'Du hast diesen Short bereits gemeldet.'],
    ['entity_not_exists', 404, 'Der Short existiert nicht.'],
    ['internal_error', 500, REPORT_OTHER],
  ] as const)('report: %s', (errorKey, status, text) => {
    expect(errorText(problem(status, { errorKey }), REPORT_OTHER)).toBe(text);
  });

  it("a view's own text for a key wins over the catalogue's", () => {
    const gone = problem(404, { errorKey: 'entity_not_exists' });
    expect(errorText(gone, 'x', { entity_not_exists: 'Der Eintrag existiert nicht.' })).toBe(
      'Der Eintrag existiert nicht.',
    );
    expect(errorText(gone, 'x', de.admin.errors)).toBe('Der Eintrag existiert nicht.');
    expect(errorText(gone, 'x')).toBe('Der Short existiert nicht.');
  });

  it('without a fallback, a key that only names a status reads as its catalogue text', () => {
    expect(errorText(problem(403, { errorKey: 'forbidden' }))).toBe(de.errors.forbidden);
    expect(errorText(problem(403, { errorKey: 'forbidden' }), 'Anders')).toBe('Anders');
  });

  it('a validation problem reads as its first invalid field, by the field key', () => {
    const invalid = (fieldErrorKeys: Record<string, string>, fieldErrors = fieldErrorKeys) =>
      problem(400, { errorKey: 'validation_failed', fieldErrors, fieldErrorKeys });
    expect(errorText(invalid({ url: 'url_invalid' }), CREATE_OTHER)).toBe('Die URL ist ungültig');
    expect(errorText(invalid({ expiredUrl: 'url_self' }), CREATE_OTHER)).toBe(de.errors.url_self);
    expect(de.errors.url_self).toMatch(/diesem Dienst selbst/);
    expect(errorText(invalid({ code: 'code_reserved' }), CREATE_OTHER)).toBe(
      'Dieser Code ist reserviert. Bitte wähle einen anderen.',
    );
    // A key that does not name its field is named by the field's label.
    expect(errorText(invalid({ maxUses: 'field_not_allowed' }), CREATE_OTHER)).toBe(
      'Max. Aufrufe: Das dürfen nur angemeldete Nutzer setzen.',
    );
    // A field of the short refused at the API boundary (no key): the field's invalidKey.
    expect(errorText(invalid({}, { name: 'must be shorter' }), CREATE_OTHER)).toBe(
      'Der Name ist ungültig',
    );
    // Any other field without a key: the view's text.
    expect(errorText(invalid({}, { csv: 'not readable' }), CREATE_OTHER)).toBe(CREATE_OTHER);
  });

  it('field texts for forms: German by key, the server message where a field has none', () => {
    const err = problem(400, {
      errorKey: 'validation_failed',
      fieldErrors: { name: 'too long', email: 'must be an e-mail', code: 'x' },
      fieldErrorKeys: { name: 'name_too_long', code: 'unknown_key' },
    });
    expect(fieldErrorTexts(err)).toEqual({
      name: `Der Name ist zu lang (höchstens ${MAX_NAME_LENGTH} Zeichen)`,
      email: 'must be an e-mail',
      // A key this client does not know: as without one (a field of the short: its invalidKey).
      code: keyText('code_invalid'),
    });
    expect(fieldErrorTexts(new Error('x'))).toEqual({});
  });

  it("a short's form: field errors of its fields, and a key that belongs to one field", () => {
    const err = problem(400, {
      errorKey: 'validation_failed',
      fieldErrors: { name: 'too long', email: 'must be an e-mail' },
      fieldErrorKeys: { name: 'name_too_long' },
    });
    expect(shortFieldErrors(err)).toEqual({
      name: `Der Name ist zu lang (höchstens ${MAX_NAME_LENGTH} Zeichen)`,
    });
    expect(shortFieldErrors(problem(409, { errorKey: 'code_exists' }))).toEqual({
      code: keyText('code_exists'),
    });
    expect(shortFieldErrors(problem(500, { errorKey: 'internal_error' }))).toEqual({});
    expect(shortFieldErrors(new Error('x'))).toEqual({});
  });

  it('recognizes the not-found answer', () => {
    expect(isNotFound(problem(404, { errorKey: 'entity_not_exists' }))).toBe(true);
    expect(isNotFound(problem(400, { errorKey: 'entity_not_exists' }))).toBe(true);
    expect(isNotFound(new ApiError(404, ''))).toBe(true);
    expect(isNotFound(problem(500))).toBe(false);
    expect(isNotFound(null)).toBe(false);
  });

  it('a 503 (database away) reads as the unavailable text wherever errors are generic', () => {
    for (const down of [
      problem(503, { detail: 'Service temporarily unavailable' }),
      problem(503, { errorKey: 'service_unavailable' }),
    ]) {
      expect(errorText(down)).toBe(UNAVAILABLE);
      expect(errorText(down, CREATE_OTHER)).toBe(UNAVAILABLE);
      expect(errorText(down, REPORT_OTHER)).toBe(UNAVAILABLE);
    }
    // A busy QR renderer (503 too) has its own text.
    expect(errorText(problem(503, { errorKey: 'qr_busy' }), 'x')).toBe(de.errors.qr_busy);
    expect(errorText(problem(500, { detail: 'Boom', errorKey: 'internal_error' }))).toBe(
      'Auf dem Server ist ein Fehler aufgetreten. Bitte versuche es später noch einmal.',
    );
    expect(errorText(problem(500, { detail: 'Boom' }))).toBe('Unbekannter Fehler');
    expect(errorText(problem(500), 'Anders')).toBe('Anders');
    expect(errorText(new NetworkError(new Error('offline')))).toBe('Unbekannter Fehler');
  });
});

describe('ApiError', () => {
  it('reads status, detail, errorKey, fieldErrors, fieldErrorKeys and title of a problem+json body', () => {
    const e = new ApiError(400, {
      type: 'about:blank',
      title: 'Bad Request',
      status: 400,
      detail: 'Validation failed',
      errorKey: 'validation_failed',
      fieldErrors: { name: 'must be at most 100 characters', maxUses: 7, code: 'x' },
      fieldErrorKeys: { name: 'name_too_long', maxUses: 'not_a_key', code: 3 },
    });
    expect(e).toBeInstanceOf(Error);
    expect(e).toMatchObject({
      status: 400,
      detail: 'Validation failed',
      errorKey: 'validation_failed',
      title: 'Bad Request',
      message: 'Validation failed',
    });
    expect(e.fieldErrors).toEqual({
      name: 'must be at most 100 characters',
      maxUses: '7',
      code: 'x',
    });
    // Only keys this client knows (ERROR_KEYS) are kept.
    expect(e.fieldErrorKeys).toEqual({ name: 'name_too_long' } satisfies Record<string, ErrorKey>);
    expect(new ApiError(400, { errorKey: 'validation' }).errorKey).toBeUndefined();
    expect(new ApiError(400, { errorKey: 'toString' }).errorKey).toBeUndefined();
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
  it('status with the German text of the key; without a key the detail, title, or Unbekannter Fehler', () => {
    expect(
      loadErrorText(
        problem(503, {
          detail: 'Down',
          title: 'Service Unavailable',
          errorKey: 'service_unavailable',
        }),
      ),
    ).toBe(`Status 503: ${UNAVAILABLE}`);
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
    expect(errorText(err, CREATE_OTHER)).toBe(text);
    expect(errorText(err, REPORT_OTHER)).toBe(text);
    expect(errorText(err)).toBe(text);
    const locked = new ApiError(429, {
      status: 429,
      detail: 'Too many wrong passwords, try again later',
      errorKey: 'password_locked',
    });
    expect(locked.rateLimited).toBe(false);
    expect(rateLimitText(locked)).toBeUndefined();
    expect(errorText(locked, 'x')).toBe(
      'Zu viele falsche Versuche. Bitte versuche es später noch einmal.',
    );
  });
});
