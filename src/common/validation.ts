import {
  type ArgumentMetadata,
  type PipeTransform,
  type ValidationError,
  ValidationPipe,
} from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { validate, validateSync } from 'class-validator';
import {
  BadRequestError,
  type DomainError,
  type ErrorKey,
  type SpecificErrorKey,
  ValidationFailedError,
} from './errors';

/**
 * The `context` of a constraint whose refusal is a plain 400 with the constraint's message as its
 * `detail` and `errorKey` as its key, not a `fieldErrors` entry: the paging parameters and the
 * management calls answer that way.
 */
export const asDetail = (errorKey: SpecificErrorKey) => ({ problem: 'detail', errorKey }) as const;

/**
 * The `context` of a constraint that names the stable key of its refusal (`fieldErrorKeys`), e.g.
 * `MaxLength(100, withErrorKey('name_too_long'))`: the short's DTOs take theirs from the field table.
 */
export const withErrorKey = (errorKey: ErrorKey) => ({ context: { errorKey } });

function collect(
  errors: ValidationError[],
  prefix: string,
  out: Record<string, string>,
  keys: Record<string, ErrorKey> = {},
): void {
  for (const e of errors) {
    const key = prefix ? `${prefix}.${e.property}` : e.property;
    if (e.constraints) {
      const messages = Object.values(e.constraints);
      // "property xyz should not exist" → a clearer sentence.
      out[key] = messages
        .map((m) => (m.endsWith('should not exist') ? 'Unknown field' : m))
        .join('; ');
      const named = Object.keys(e.constraints)
        .map((name) => (e.contexts?.[name] as { errorKey?: ErrorKey } | undefined)?.errorKey)
        .find((k) => k !== undefined);
      if (named) keys[key] = named;
    }
    if (e.children?.length) collect(e.children, key, out, keys);
  }
}

/** The first refusal that is answered as a plain 400 (asDetail), in the order of the properties. */
function detailOf(errors: ValidationError[]): BadRequestError | undefined {
  for (const e of errors) {
    for (const [name, message] of Object.entries(e.constraints ?? {})) {
      const context = e.contexts?.[name] as Partial<ReturnType<typeof asDetail>> | undefined;
      if (context?.problem === 'detail' && context.errorKey) {
        return new BadRequestError(message, context.errorKey);
      }
    }
  }
  return undefined;
}

/** The problem of refused input: 400 with fieldErrors, or a plain 400 (asDetail). */
export function validationProblem(errors: ValidationError[]): DomainError {
  const detail = detailOf(errors);
  if (detail) return detail;
  const fieldErrors: Record<string, string> = {};
  const fieldErrorKeys: Record<string, ErrorKey> = {};
  collect(errors, '', fieldErrors, fieldErrorKeys);
  return new ValidationFailedError(fieldErrors, fieldErrorKeys);
}

const COMMON = {
  whitelist: true,
  transform: true,
  transformOptions: { enableImplicitConversion: false },
  validationError: { target: false, value: false },
  exceptionFactory: validationProblem,
};

/**
 * The one validation pipe. Bodies and path parameters: unknown fields and wrong types are 400 with
 * fieldErrors. Query DTOs: transformed by their decorators (common/query.ts: first values, numbers,
 * defaults) and checked the same way, but query parameters a DTO does not declare are dropped, not
 * refused (browsers, the web client and ShareX send extras).
 */
class AppValidationPipe implements PipeTransform {
  private readonly strict = new ValidationPipe({ ...COMMON, forbidNonWhitelisted: true });
  private readonly query = new ValidationPipe({ ...COMMON, forbidNonWhitelisted: false });

  transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const dtoClass = metadata.metatype as (new () => object) | undefined;
    if (metadata.type === 'body' && dtoClass && acceptsAsIs(dtoClass, value)) {
      return Promise.resolve(Object.assign(new dtoClass(), value));
    }
    return (metadata.type === 'query' ? this.query : this.strict).transform(value, metadata);
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return (
    typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype
  );
}

/** Per body DTO class: a check of a plain body that only says yes when the class's validators would. */
const plainChecks = new WeakMap<object, (body: Record<string, unknown>) => boolean>();

/**
 * Lets the pipe take a body of `dtoClass` as it is (an instance of the class with the body's
 * fields, as class-transformer would make it) when `passes` says yes, without class-transformer's
 * copy and class-validator's walk over the class's metadata (a tenth of an anonymous create's
 * CPU). `passes` must be narrower than the validators: yes only for a flat object of known fields
 * whose values the validators accept; everything else (and every refusal, with its messages) goes
 * through the full pipe.
 */
export function acceptAsIs<T extends object>(
  dtoClass: new () => T,
  passes: (body: Record<string, unknown>) => boolean,
): void {
  plainChecks.set(dtoClass, passes);
}

/** Whether the pipe takes `value` as a body of `dtoClass` as it is (see acceptAsIs). */
export function acceptsAsIs(dtoClass: object, value: unknown): value is Record<string, unknown> {
  return isPlainObject(value) && plainChecks.get(dtoClass)?.(value) === true;
}

export function createValidationPipe(): PipeTransform {
  return new AppValidationPipe();
}

/**
 * A query DTO read from a plain query object as the pipe reads it (first values, defaults), for
 * callers outside a request (unit tests, parsePageRequest); refused input throws the same problem.
 */
export function readQuery<T extends object>(
  dtoClass: new () => T,
  query: Record<string, unknown>,
): T {
  const dto = plainToInstance(dtoClass, query, COMMON.transformOptions);
  const errors = validateSync(dto, { whitelist: true, validationError: COMMON.validationError });
  if (errors.length) throw validationProblem(errors);
  return dto;
}

/**
 * The pipe's checks of a body's top-level fields, without class-transformer's copy of every nested
 * value: for large bodies of plain data (an import's 5,000 rows), where that copy alone held the
 * event loop for half a second. A route that uses it takes its body untyped (`@Body() body:
 * unknown`, so the global pipe leaves it alone) and may declare no nested DTOs.
 */
export async function validateTopLevel<T extends object>(
  dtoClass: new () => T,
  body: unknown,
): Promise<T> {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new ValidationFailedError({ body: 'must be a JSON object' });
  }
  const dto = Object.assign(new dtoClass(), body);
  const errors = await validate(dto, {
    whitelist: true,
    forbidNonWhitelisted: true,
    validationError: { target: false, value: false },
  });
  if (errors.length) throw validationProblem(errors);
  return dto;
}
