import { describe, expect, it } from 'vitest';
import { ValidationFailedError } from '../../common/errors';
import { validateTopLevel } from '../../common/validation';
import { ImportShortsDto } from './transfer.dto';

async function fieldErrors(body: unknown): Promise<Record<string, string>> {
  const err = await validateTopLevel(ImportShortsDto, body).then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ValidationFailedError);
  return (err as ValidationFailedError).fieldErrors;
}

describe('ImportShortsDto', () => {
  // Issue 37: {"csv": null} passed the checks and answered 500 from the CSV parser.
  it.each([
    [{ csv: null }, 'csv'],
    [{ rows: null }, 'rows'],
    [{ csv: null, rows: [{ url: 'https://example.com/' }] }, 'csv'],
    [{ csv: 'url\nhttps://example.com/', rows: null }, 'rows'],
    [{ csv: 5 }, 'csv'],
    [{ rows: [null] }, 'rows'],
  ])('refuses %j with fieldErrors.%s', async (body, field) => {
    expect(Object.keys(await fieldErrors(body))).toContain(field);
  });

  it('takes either field when the other is absent', async () => {
    await expect(validateTopLevel(ImportShortsDto, { csv: 'url\n' })).resolves.toBeDefined();
    await expect(validateTopLevel(ImportShortsDto, { rows: [] })).resolves.toBeDefined();
  });
});
