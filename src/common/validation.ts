import { ValidationError, ValidationPipe } from '@nestjs/common';
import { ValidationFailedError } from './errors';

function collect(errors: ValidationError[], prefix: string, out: Record<string, string>): void {
  for (const e of errors) {
    const key = prefix ? `${prefix}.${e.property}` : e.property;
    if (e.constraints) {
      const messages = Object.values(e.constraints);
      // "property xyz should not exist" → a clearer sentence.
      out[key] = messages
        .map((m) => (m.endsWith('should not exist') ? 'Unknown field' : m))
        .join('; ');
    }
    if (e.children?.length) collect(e.children, key, out);
  }
}

/** The one validation pipe: unknown fields and wrong types are 400 with fieldErrors. */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    transformOptions: { enableImplicitConversion: false },
    validationError: { target: false, value: false },
    exceptionFactory: (errors) => {
      const fieldErrors: Record<string, string> = {};
      collect(errors, '', fieldErrors);
      return new ValidationFailedError(fieldErrors);
    },
  });
}
