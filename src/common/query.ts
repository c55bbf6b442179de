import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional, type ApiPropertyOptions } from '@nestjs/swagger';
import { Expose, Transform } from 'class-transformer';
import { Allow, IsIn, IsOptional, ValidateBy, type ValidationArguments } from 'class-validator';
import { firstValue } from './request';
import type { SpecificErrorKey } from './errors';
import { asDetail } from './validation';

/**
 * Building blocks of query DTOs (`@Query() dto: SomeQueryDto`): each decorator declares a query
 * parameter once, for the OpenAPI document (name, type, enum, default, minimum and maximum), its
 * reading (the first value of a repeated parameter, a list for a repeatable one, the default when it
 * is missing) and its check. The global pipe (common/validation.ts) transforms query DTOs and
 * ignores query parameters they do not declare.
 */

/** Every value of a repeatable query parameter (`?sort=a&sort=b`), text only. */
export function allValues(v: unknown): string[] {
  if (Array.isArray(v)) return v.filter((x): x is string => typeof x === 'string');
  return typeof v === 'string' ? [v] : [];
}

type Doc = Pick<ApiPropertyOptions, 'description' | 'format' | 'example' | 'maxLength'>;

/**
 * A text parameter, taken as it comes (its first value); with `default`, a missing one (not an
 * empty one) reads as that. `required` only documents it: a missing one is left to the route.
 */
export function QueryText(
  doc: Doc & { default?: string; enum?: readonly string[]; required?: true } = {},
): PropertyDecorator {
  const { enum: values, required, ...rest } = doc;
  const Documented = required ? ApiProperty : ApiPropertyOptional;
  return applyDecorators(
    Documented({ type: String, ...rest, ...(values ? { enum: [...values] } : {}) }),
    Expose(),
    Transform(({ value }: { value: unknown }) => firstValue(value) ?? doc.default),
    Allow(),
  );
}

/** One of `values` (a missing one is `default`); anything else is refused with `message`. */
export function QueryEnum<T extends string>(
  values: readonly T[],
  opts: Doc & { default?: T; message: string },
): PropertyDecorator {
  const { message, ...doc } = opts;
  return applyDecorators(
    ApiPropertyOptional({ type: String, enum: [...values], ...doc }),
    Expose(),
    Transform(({ value }: { value: unknown }) => firstValue(value) ?? doc.default),
    IsOptional(),
    IsIn(values as readonly string[], { message }),
  );
}

export interface QueryIntOptions extends Doc {
  /** The value of a missing or empty parameter. */
  default: number;
  minimum: number;
  maximum?: number;
  /** A value above `maximum` reads as `maximum` (paging's size) instead of being refused. */
  capAtMaximum?: boolean;
  /** How many digits are read at the most (a longer number is refused). */
  digits: number;
  /** The refusal: a field error, or with `asDetail` a plain 400 with this detail and that key. */
  message: string;
  asDetail?: SpecificErrorKey;
}

/** A whole number written in decimal digits (no sign, no exponent, no spaces). */
export function QueryInt(opts: QueryIntOptions): PropertyDecorator {
  const { minimum, maximum, capAtMaximum, digits, message, asDetail: detailKey, ...doc } = opts;
  const digitsOnly = new RegExp(`^\\d{1,${digits}}$`);
  return applyDecorators(
    ApiPropertyOptional({ type: 'integer', minimum, maximum, ...doc }),
    Expose(),
    Transform(({ value }: { value: unknown }) => {
      const v = firstValue(value);
      if (v === undefined || v === '') return opts.default;
      if (!digitsOnly.test(v)) return NaN;
      const n = Number(v);
      return capAtMaximum && maximum !== undefined ? Math.min(n, maximum) : n;
    }),
    ValidateBy(
      {
        name: 'queryInt',
        validator: {
          validate: (v: unknown) =>
            typeof v === 'number' &&
            Number.isInteger(v) &&
            v >= minimum &&
            (maximum === undefined || v <= maximum),
        },
      },
      { message, context: detailKey ? asDetail(detailKey) : undefined },
    ),
  );
}

/** A repeatable parameter (`?sort=a&sort=b`): every value, in order. */
export function QueryList(
  doc: Doc & { items: { type: 'string'; pattern?: string } },
): PropertyDecorator {
  const { items, ...rest } = doc;
  return applyDecorators(
    ApiPropertyOptional({ type: 'array', items, ...rest }),
    Expose(),
    Transform(({ value }: { value: unknown }) => allValues(value)),
    Allow(),
  );
}

/**
 * A parameter checked together with the others by `rule`, which answers the field errors of the
 * whole query (a range, say, whose ends depend on each other). The parameter is refused with its own
 * message from there; the rule runs once per query.
 */
export function QueryRule<T extends object>(
  rule: (query: T) => Readonly<Record<string, string>>,
): PropertyDecorator {
  const seen = new WeakMap<object, Readonly<Record<string, string>>>();
  const errorsOf = (query: object) => {
    let errors = seen.get(query);
    if (!errors) {
      errors = rule(query as T);
      seen.set(query, errors);
    }
    return errors;
  };
  const own = (args: ValidationArguments) =>
    Object.hasOwn(errorsOf(args.object), args.property)
      ? errorsOf(args.object)[args.property]
      : undefined;
  return ValidateBy({
    name: 'queryRule',
    validator: {
      validate: (_: unknown, args?: ValidationArguments) => !args || own(args) === undefined,
      defaultMessage: (args?: ValidationArguments) => (args && own(args)) ?? 'is invalid',
    },
  });
}
