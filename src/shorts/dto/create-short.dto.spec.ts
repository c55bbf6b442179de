import 'reflect-metadata';
import { ValidationPipe } from '@nestjs/common';
import { describe, expect, it } from 'vitest';
import { createValidationPipe, validationProblem } from '../../common/validation';
import { CreateShortDto } from './create-short.dto';
import { passesShortFieldChecks } from './short-fields.dto';

/** The pipe as it was before the shortcut: class-transformer and class-validator for every body. */
const full = new ValidationPipe({
  whitelist: true,
  forbidNonWhitelisted: true,
  transform: true,
  transformOptions: { enableImplicitConversion: false },
  validationError: { target: false, value: false },
  exceptionFactory: validationProblem,
});
const pipe = createValidationPipe();
const body = { type: 'body', metatype: CreateShortDto } as const;

const VALUES: unknown[] = [
  null,
  '',
  'x',
  'https://example.com/a',
  'a'.repeat(100),
  'a'.repeat(101),
  'a'.repeat(255),
  'a'.repeat(256),
  'a'.repeat(2048),
  'a'.repeat(5000),
  'a'.repeat(5001),
  '😀',
  '\uFE0F',
  'a\uFE0E',
  '\uD800',
  'x'.repeat(4999) + '😀',
  7,
  0,
  true,
  [],
  [{}],
  {},
  '2030-01-01T00:00:00.000Z',
];
const FIELDS = [
  'url',
  'password',
  'code',
  'name',
  'expireAt',
  'maxUses',
  'domain',
  'expiredUrl',
  'rules',
  'other',
  'constructor',
];

/** A deterministic pseudo-random generator (the same bodies every run). */
function rng(seed: number) {
  return () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
}

function bodies(): Array<Record<string, unknown>> {
  const out: Array<Record<string, unknown>> = [{}];
  for (const f of FIELDS) for (const v of VALUES) out.push({ url: 'https://example.com', [f]: v });
  const r = rng(42);
  for (let i = 0; i < 2000; i++) {
    const b: Record<string, unknown> = {};
    for (const f of FIELDS) if (r() < 0.3) b[f] = VALUES[Math.floor(r() * VALUES.length)];
    out.push(b);
  }
  return out;
}

async function outcome(p: { transform(v: unknown, m: typeof body): unknown }, value: unknown) {
  try {
    return { ok: await p.transform(structuredClone(value), body) };
  } catch (err) {
    return { error: err };
  }
}

describe('the create body shortcut of the validation pipe', () => {
  it('says yes only where class-validator finds nothing, and answers as the full pipe', async () => {
    let passed = 0;
    for (const b of bodies()) {
      const expected = await outcome(full, b);
      if (passesShortFieldChecks(b)) {
        passed++;
        expect(expected, JSON.stringify(b)).toHaveProperty('ok');
      }
      const got = await outcome(pipe, b);
      if ('ok' in expected) {
        expect(got.ok).toBeInstanceOf(CreateShortDto);
        expect(got.ok).toStrictEqual(expected.ok);
      } else {
        expect(got).toHaveProperty('error');
        expect((got.error as Error).message).toBe((expected.error as Error).message);
        expect({ ...(got.error as object) }).toStrictEqual({ ...(expected.error as object) });
      }
    }
    expect(passed).toBeGreaterThan(50);
  });

  it('takes the usual anonymous body as an instance with its fields', async () => {
    const dto = await pipe.transform({ url: 'https://example.com/a', password: null }, body);
    expect(dto).toBeInstanceOf(CreateShortDto);
    expect(dto).toMatchObject({ url: 'https://example.com/a', password: null });
  });
});
